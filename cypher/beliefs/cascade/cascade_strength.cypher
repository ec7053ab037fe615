// Cascade: re-derives the strength of every active belief above the changed ones along SUPPORTS,
// strength = Σ w · strength(supporter) / Σ w over active supporters, in dependency order (by the
// longest SUPPORTS distance from a changed belief), recording a 'cascade' event for each belief
// that moves. Distrusted beliefs keep their strength. A changed belief may itself be inactive:
// one just deactivated no longer counts among the supporters of the beliefs above it, which are
// re-derived from the supporters left (a belief left with none keeps its strength). Runs inside
// the caller's transaction, after graph/agent_scope/lock_agent.
// Each event records the derivation's inputs, so that replay can re-derive it and an
// explanation can name them: supporter_ids, supporter_strengths, supporter_weights (parallel
// lists: the supporters counted, heaviest edge first then by id, at most $max_inputs of them,
// each strength as it was then), supporter_count (all supporters counted), weighted_sum
// (Σ w · strength) and weight_sum (Σ w) over all of them; new_strength = weighted_sum / weight_sum.
// Params: $agent_id (string), $changed_ids (list of strings), $m (map: mechanics),
//         $cause (string or null: why, stored on the events),
//         $max_inputs (int: the most supporters listed on one event).
// Returns: moved (list of {id, old, new}, in the order applied).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH path = (changed:Belief)-[:SUPPORTS]->+(above:Belief)
WHERE changed.agent_id = $agent_id AND changed.id IN $changed_ids
  AND all(n IN nodes(path)[1..] WHERE n.is_active)
WITH agent, above, max(length(path)) AS distance
ORDER BY distance, above.id
CALL (agent, above) {
  MATCH (supporter:Belief)-[s:SUPPORTS]->(above)
  WHERE supporter.is_active AND NOT above.is_distrusted
  WITH agent, above, supporter, s ORDER BY s.weight DESC, supporter.id
  WITH agent, above, sum(s.weight * supporter.strength) AS weighted_sum, sum(s.weight) AS weight_sum,
       count(supporter) AS supporter_count,
       collect({id: supporter.id, strength: supporter.strength, weight: s.weight})[..$max_inputs]
         AS inputs
  WITH agent, above, weighted_sum, weight_sum, supporter_count, inputs,
       weighted_sum / weight_sum AS derived, above.strength AS old
  WHERE abs(derived - old) > 1e-12
  SET above.strength = derived,
      above.is_invalidated = derived < $m.thresholds[above.category] - $m.invalidation_tolerance,
      agent.event_seq = agent.event_seq + 1
  CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: above.id,
                         kind: 'cascade', seq: agent.event_seq, old_strength: old,
                         new_strength: derived, old_tension: above.tension,
                         new_tension: above.tension, at: datetime($now), note: $cause,
                         supporter_ids: [i IN inputs | i.id],
                         supporter_strengths: [i IN inputs | i.strength],
                         supporter_weights: [i IN inputs | i.weight],
                         supporter_count: supporter_count, weighted_sum: weighted_sum,
                         weight_sum: weight_sum})-[:OF]->(above)
  RETURN {id: above.id, old: old, new: derived} AS moved
}
RETURN collect(moved) AS moved
