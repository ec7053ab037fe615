// Applies a batch of evidence in one statement, belief by belief rather than piece by piece
// (the same result as one at a time: tension only adds, capped at 1, and reinforcements combine
// as 1 − (1 − s) · Π(1 − rate · w) in any order):
// - reinforcing evidence raises strength with diminishing returns (not for distrusted beliefs);
// - contradicting evidence adds tension rate · weight (linear, never decays), and that tension
//   flows up to $m.propagation_max_hops SUPPORTS hops: δ · ρ^k · Π(edge weights), summed over
//   paths whose beliefs are all active;
// - every piece is logged as an Evidence node (REINFORCES / CHALLENGES / CONCERNS its belief,
//   FROM its Episode and Person when they exist), with its nominal tension_delta;
// - every strength or tension change writes a BeliefEvent (one per belief and kind per batch,
//   with the weights / delta that replay needs), and the agent's dissatisfaction sums follow.
// Call agents/lock_agent first; run beliefs/cascade_strength on the beliefs whose strength moved.
// Params: $agent_id (string), $m (map: mechanics), $items (list of maps: evidence_id, belief_id,
//         text, kind, stance 'reinforcing'|'contradicting'|'neutral'|'novel', weight float 0..1,
//         source_person_id string or null, episode_id string or null).
// Returns: per belief named that exists, as parallel lists: ids, active (false means the caller
//          must roll back), old_strength, new_strength, old_tension, new_tension; per belief that
//          propagated tension reached, as parallel lists: propagated_ids, propagated_old,
//          propagated_new, propagated_added.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  UNWIND $items AS item
  WITH agent, item.belief_id AS belief_id, collect(item) AS pieces
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  WITH agent, b, pieces,
       [p IN pieces WHERE p.stance = 'reinforcing' | toFloat(p.weight)] AS weights,
       reduce(delta = 0.0, p IN pieces |
              delta + CASE WHEN p.stance = 'contradicting'
                           THEN $m.contradiction_rate * p.weight ELSE 0.0 END) AS delta
  WITH agent, b, pieces, weights, delta, b.strength AS old_strength, b.tension AS old_tension,
       CASE WHEN b.is_distrusted OR size(weights) = 0 THEN b.strength
            ELSE 1.0 - (1.0 - b.strength)
                       * reduce(keep = 1.0, w IN weights | keep * (1.0 - $m.reinforcement_rate * w))
       END AS new_strength,
       CASE WHEN b.tension + delta > 1.0 THEN 1.0 ELSE b.tension + delta END AS new_tension
  SET b.strength = new_strength,
      b.tension = new_tension,
      b.is_invalidated = new_strength < $m.thresholds[b.category],
      b.reinforcement_count = b.reinforcement_count + size(weights),
      b.last_reinforced = CASE WHEN size(weights) > 0 THEN datetime() ELSE b.last_reinforced END,
      b.last_challenged = CASE WHEN delta > 0 THEN datetime() ELSE b.last_challenged END,
      agent.d_t_imp = agent.d_t_imp + (new_tension - old_tension) * b.importance,
      agent.d_t_imp_deg = agent.d_t_imp_deg + (new_tension - old_tension) * b.importance * b.degree
  // Two events at most, tension first: each records the other quantity as it stood, so the
  // log replays in sequence (old values always equal the replayed ones).
  CALL (agent, b, pieces, delta, old_strength, old_tension, new_tension) {
    WITH agent, b, pieces, delta, old_strength, old_tension, new_tension
    WHERE abs(new_tension - old_tension) > 1e-12
    SET agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id,
                           kind: 'contradiction', action: 'evidence', delta: delta,
                           evidence_ids: [p IN pieces WHERE p.stance = 'contradicting' |
                                          p.evidence_id],
                           seq: agent.event_seq, old_strength: old_strength,
                           new_strength: old_strength, old_tension: old_tension,
                           new_tension: new_tension, at: datetime()})-[:OF]->(b)
  }
  CALL (agent, b, pieces, weights, old_strength, new_strength, new_tension) {
    WITH agent, b, pieces, weights, old_strength, new_strength, new_tension
    WHERE abs(new_strength - old_strength) > 1e-12
    SET agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id,
                           kind: 'reinforcement', action: 'evidence', weights: weights,
                           evidence_ids: [p IN pieces WHERE p.stance = 'reinforcing' |
                                          p.evidence_id],
                           seq: agent.event_seq, old_strength: old_strength,
                           new_strength: new_strength, old_tension: new_tension,
                           new_tension: new_tension, at: datetime()})-[:OF]->(b)
  }
  CALL (b, pieces) {
    UNWIND pieces AS piece
    CREATE (ev:Evidence {id: piece.evidence_id, agent_id: $agent_id, belief_id: b.id,
                         text: piece.text, kind: piece.kind, stance: piece.stance,
                         weight: toFloat(piece.weight),
                         tension_delta: CASE WHEN piece.stance = 'contradicting'
                                             THEN $m.contradiction_rate * piece.weight
                                             ELSE 0.0 END,
                         source_person: piece.source_person_id, episode_id: piece.episode_id,
                         at: datetime()})
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
  RETURN collect({id: b.id, active: b.is_active, old_strength: old_strength,
                  new_strength: new_strength, old_tension: old_tension,
                  new_tension: new_tension, node: b, delta: delta,
                  challenged_by: [p IN pieces WHERE p.stance = 'contradicting' |
                                  p.evidence_id]}) AS touched
}
CALL (agent, touched) {
  UNWIND [t IN touched WHERE t.delta > 0] AS source
  WITH agent, source.node AS origin, source.delta AS delta, source.challenged_by AS ids
  MATCH path = (origin)-[:SUPPORTS]->{1,3}(x:Belief)
  WHERE length(path) <= $m.propagation_max_hops AND all(n IN nodes(path) WHERE n.is_active)
  WITH agent, x,
       sum(delta * $m.propagation_rho ^ length(path)
           * reduce(product = 1.0, r IN relationships(path) | product * r.weight)) AS added,
       collect(DISTINCT origin.id) AS origins, collect(DISTINCT ids) AS id_lists
  ORDER BY x.id
  CALL (agent, x, added, origins, id_lists) {
    WITH agent, x, added, origins, id_lists, x.tension AS old
    WITH agent, x, added, origins, id_lists, old,
         CASE WHEN old + added > 1.0 THEN 1.0 ELSE old + added END AS new
    WHERE abs(new - old) > 1e-12
    SET x.tension = new,
        x.last_challenged = datetime(),
        agent.d_t_imp = agent.d_t_imp + (new - old) * x.importance,
        agent.d_t_imp_deg = agent.d_t_imp_deg + (new - old) * x.importance * x.degree,
        agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: x.id,
                           kind: 'contradiction', action: 'propagated', delta: added,
                           origin_belief_ids: origins,
                           evidence_ids: reduce(all_ids = [], l IN id_lists | all_ids + l),
                           seq: agent.event_seq,
                           old_strength: x.strength, new_strength: x.strength,
                           old_tension: old, new_tension: new, at: datetime()})-[:OF]->(x)
    RETURN x.id AS moved_id, old AS moved_old, new AS moved_new
  }
  RETURN collect(moved_id) AS propagated_ids, collect(moved_old) AS propagated_old,
         collect(moved_new) AS propagated_new, collect(added) AS propagated_added
}
// Parallel lists rather than maps: a batch of thousands decodes much faster.
RETURN [t IN touched | t.id] AS ids, [t IN touched | t.active] AS active,
       [t IN touched | t.old_strength] AS old_strength,
       [t IN touched | t.new_strength] AS new_strength,
       [t IN touched | t.old_tension] AS old_tension,
       [t IN touched | t.new_tension] AS new_tension,
       propagated_ids, propagated_old, propagated_new, propagated_added
