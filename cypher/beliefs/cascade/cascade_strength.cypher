// Cascade: re-derives the strength of every active belief above the changed ones along SUPPORTS,
// strength = Σ w · strength(supporter) / Σ w over active supporters, in dependency order (by the
// longest SUPPORTS distance from a changed belief), recording a 'cascade' event for each belief
// that moves. Distrusted beliefs keep their strength. A changed belief may itself be inactive:
// one just deactivated no longer counts among the supporters of the beliefs above it, which are
// re-derived from the supporters left (a belief left with none keeps its strength). Runs inside
// the caller's transaction, after graph/agent_scope/lock_agent.
// Params: $agent_id (string), $changed_ids (list of strings), $m (map: mechanics),
//         $cause (string or null: why, stored on the events).
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
  WITH agent, above, sum(s.weight * supporter.strength) / sum(s.weight) AS derived,
       above.strength AS old
  WHERE abs(derived - old) > 1e-12
  SET above.strength = derived,
      above.is_invalidated = derived < $m.thresholds[above.category] - $m.invalidation_tolerance,
      agent.event_seq = agent.event_seq + 1
  CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: above.id,
                         kind: 'cascade', seq: agent.event_seq, old_strength: old,
                         new_strength: derived, old_tension: above.tension,
                         new_tension: above.tension, at: datetime($now), note: $cause})-[:OF]->(above)
  RETURN {id: above.id, old: old, new: derived} AS moved
}
RETURN collect(moved) AS moved
