// Applies a round of a batch of evidence in one statement, belief by belief rather than piece by
// piece (the same result as one at a time: tension only adds, capped at 1, and reinforcements
// combine as 1 − (1 − s) · Π(1 − rate · w) in any order). One at a time, a piece on a belief
// above one an earlier piece reinforced would first see that reinforcement's cascade: the caller
// (app/beliefs/updates.py) never puts such a pair in one round (beliefs/updates/find_beliefs_above).
// - reinforcing evidence raises strength with diminishing returns, counts in
//   reinforcement_count and sets last_reinforced; a distrusted belief takes none of it (the
//   evidence is still logged: evidence received, no reinforcement applied);
// - contradicting evidence adds tension rate · weight (linear, never decays), and that tension
//   flows up to $m.propagation_max_hops SUPPORTS hops: δ · ρ^k · Π(edge weights), summed over
//   paths whose beliefs are all active;
// - every piece is logged as an Evidence node (REINFORCES / CHALLENGES / CONCERNS its belief,
//   FROM its Episode and Person when they exist), with its nominal tension_delta and its seq:
//   the order the agent's evidence was written in (agent.evidence_seq counts it), which orders
//   pieces that share `at`;
// - every strength or tension change writes a BeliefEvent (one per belief and kind per batch,
//   with the weights / delta that replay needs), and the agent's dissatisfaction sums follow.
// Call graph/agent_scope/lock_agent first; run beliefs/cascade/cascade_strength on the beliefs whose strength moved.
// Params: $agent_id (string), $m (map: mechanics), $items (list of maps: evidence_id, belief_id,
//         text, kind, stance 'reinforcing'|'contradicting'|'neutral'|'novel', weight float 0..1,
//         source_person_id string or null, episode_id string or null, position int: the
//         piece's index in $items).
// Returns: per belief named that exists, as parallel lists: ids, active (false means the caller
//          must roll back), old_strength, new_strength, old_tension, new_tension; per belief that
//          propagated tension reached, as parallel lists: propagated_ids, propagated_old,
//          propagated_new, propagated_added.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
// 1. Each belief named, once, with all its pieces.
CALL (agent) {
  UNWIND $items AS item
  WITH item.belief_id AS belief_id, collect(item) AS pieces
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  WITH b, pieces,
       [p IN pieces WHERE p.stance = 'reinforcing' | toFloat(p.weight)] AS weights,
       reduce(delta = 0.0, p IN pieces |
              delta + CASE WHEN p.stance = 'contradicting'
                           THEN $m.contradiction_rate * p.weight ELSE 0.0 END) AS delta
  WITH b, pieces, weights, delta, b.strength AS old_strength, b.tension AS old_tension,
       CASE WHEN b.is_distrusted OR size(weights) = 0 THEN b.strength
            ELSE 1.0 - (1.0 - b.strength)
                       * reduce(keep = 1.0, w IN weights | keep * (1.0 - $m.reinforcement_rate * w))
       END AS new_strength,
       CASE WHEN b.tension + delta > 1.0 THEN 1.0 ELSE b.tension + delta END AS new_tension
  SET b.strength = new_strength,
      b.tension = new_tension,
      b.is_invalidated = new_strength < $m.thresholds[b.category] - $m.invalidation_tolerance,
      b.reinforcement_count = b.reinforcement_count
                              + CASE WHEN b.is_distrusted THEN 0 ELSE size(weights) END,
      b.last_reinforced = CASE WHEN size(weights) > 0 AND NOT b.is_distrusted THEN datetime($now)
                               ELSE b.last_reinforced END,
      b.last_challenged = CASE WHEN delta > 0 THEN datetime($now) ELSE b.last_challenged END
  RETURN collect({node: b, pieces: pieces, weights: weights, delta: delta,
                  old_strength: old_strength, new_strength: new_strength,
                  old_tension: old_tension, new_tension: new_tension,
                  challenged_by: [p IN pieces WHERE p.stance = 'contradicting' |
                                  p.evidence_id]}) AS touched
}
// 2. The Evidence nodes, one per piece, numbered in the order given.
WITH agent, touched, coalesce(agent.evidence_seq, 0) AS evidence_base
SET agent.evidence_seq = evidence_base + size($items)
CALL (touched, evidence_base) {
  UNWIND touched AS t
  UNWIND t.pieces AS piece
  WITH t.node AS b, piece
  CREATE (ev:Evidence {id: piece.evidence_id, agent_id: $agent_id, belief_id: b.id,
                       seq: evidence_base + piece.position + 1,
                       text: piece.text, kind: piece.kind, stance: piece.stance,
                       weight: toFloat(piece.weight),
                       tension_delta: CASE WHEN piece.stance = 'contradicting'
                                           THEN $m.contradiction_rate * piece.weight ELSE 0.0 END,
                       source_person: piece.source_person_id, episode_id: piece.episode_id,
                       at: datetime($now)})
  CREATE (ev)-[:$(CASE piece.stance WHEN 'reinforcing' THEN 'REINFORCES'
                                    WHEN 'contradicting' THEN 'CHALLENGES'
                                    ELSE 'CONCERNS' END)]->(b)
  WITH ev, piece WHERE piece.episode_id IS NOT NULL OR piece.source_person_id IS NOT NULL
  CALL (ev, piece) {
    MATCH (episode:Episode {agent_id: $agent_id, id: piece.episode_id})
    CREATE (ev)-[:FROM]->(episode)
  }
  CALL (ev, piece) {
    MATCH (person:Person {agent_id: $agent_id, id: piece.source_person_id})
    CREATE (ev)-[:FROM]->(person)
  }
}
// 3. Propagation of the direct tension up the SUPPORTS hierarchy, summed per belief reached.
CALL (touched) {
  UNWIND [t IN touched WHERE t.delta > 0] AS source
  WITH source.node AS origin, source.delta AS delta, source.challenged_by AS ids
  MATCH path = (origin)-[:SUPPORTS]->{1,3}(x:Belief)
  WHERE length(path) <= $m.propagation_max_hops AND all(n IN nodes(path) WHERE n.is_active)
  WITH x,
       sum(delta * $m.propagation_rho ^ length(path)
           * reduce(product = 1.0, r IN relationships(path) | product * r.weight)) AS added,
       collect(DISTINCT origin.id) AS origins, collect(DISTINCT ids) AS id_lists
  WITH x, added, origins, id_lists, x.tension AS old,
       CASE WHEN x.tension + added > 1.0 THEN 1.0 ELSE x.tension + added END AS new
  WHERE abs(new - old) > 1e-12
  SET x.tension = new, x.last_challenged = datetime($now)
  WITH x, added, origins, id_lists, old, new ORDER BY x.id
  RETURN collect({node: x, old: old, new: new, added: added, origins: origins,
                  evidence_ids: reduce(all_ids = [], l IN id_lists | all_ids + l)}) AS reached
}
// 4. Events: one block of sequence numbers for the whole batch. Per belief named, tension
//    first, then strength, each recording the other quantity as it stood (so old values always
//    equal the replayed ones); then one per belief that propagation reached.
WITH agent, touched, reached,
     reduce(events = [], t IN touched |
            events
            + CASE WHEN abs(t.new_tension - t.old_tension) > 1e-12
                   THEN [{node: t.node, kind: 'contradiction', action: 'evidence',
                          delta: t.delta, evidence_ids: t.challenged_by,
                          old_strength: t.old_strength, new_strength: t.old_strength,
                          old_tension: t.old_tension, new_tension: t.new_tension}]
                   ELSE [] END
            + CASE WHEN abs(t.new_strength - t.old_strength) > 1e-12
                   THEN [{node: t.node, kind: 'reinforcement', action: 'evidence',
                          weights: t.weights,
                          evidence_ids: [p IN t.pieces WHERE p.stance = 'reinforcing' |
                                         p.evidence_id],
                          old_strength: t.old_strength, new_strength: t.new_strength,
                          old_tension: t.new_tension, new_tension: t.new_tension}]
                   ELSE [] END)
     + [r IN reached | {node: r.node, kind: 'contradiction', action: 'propagated',
                        delta: r.added, origin_belief_ids: r.origins,
                        evidence_ids: r.evidence_ids, old_strength: r.node.strength,
                        new_strength: r.node.strength, old_tension: r.old,
                        new_tension: r.new}] AS events
// 5. The agent's dissatisfaction sums follow every tension change.
WITH agent, touched, reached, events, agent.event_seq AS base,
     reduce(change = 0.0, t IN touched | change + (t.new_tension - t.old_tension) * t.node.importance)
     + reduce(change = 0.0, r IN reached | change + (r.new - r.old) * r.node.importance) AS t_imp,
     reduce(change = 0.0, t IN touched |
            change + (t.new_tension - t.old_tension) * t.node.importance * t.node.degree)
     + reduce(change = 0.0, r IN reached |
              change + (r.new - r.old) * r.node.importance * r.node.degree) AS t_imp_deg
SET agent.event_seq = base + size(events),
    agent.d_t_imp = agent.d_t_imp + t_imp,
    agent.d_t_imp_deg = agent.d_t_imp_deg + t_imp_deg
CALL (events, base) {
  UNWIND range(0, size(events) - 1) AS position
  WITH events[position] AS event, base + position + 1 AS seq
  WITH event, event.node AS b, seq
  CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id,
                         kind: event.kind, action: event.action, seq: seq,
                         delta: event.delta, weights: event.weights,
                         evidence_ids: event.evidence_ids,
                         origin_belief_ids: event.origin_belief_ids,
                         old_strength: event.old_strength, new_strength: event.new_strength,
                         old_tension: event.old_tension, new_tension: event.new_tension,
                         at: datetime($now)})
  CREATE (e)-[:OF]->(b)
}
// Parallel lists rather than maps: a batch of thousands decodes much faster.
RETURN [t IN touched | t.node.id] AS ids, [t IN touched | t.node.is_active] AS active,
       [t IN touched | t.old_strength] AS old_strength,
       [t IN touched | t.new_strength] AS new_strength,
       [t IN touched | t.old_tension] AS old_tension,
       [t IN touched | t.new_tension] AS new_tension,
       [r IN reached | r.node.id] AS propagated_ids, [r IN reached | r.old] AS propagated_old,
       [r IN reached | r.new] AS propagated_new, [r IN reached | r.added] AS propagated_added
