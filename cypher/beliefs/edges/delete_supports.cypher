// Deletes source -[:SUPPORTS]-> target by hand and records it on the target: a BeliefEvent
// (kind $kind, action 'support_removed', supporter_id, weight, note; strength and tension
// unchanged: the cascade the caller runs next, from the supporters left, records the move).
// The degrees follow as beliefs/dissatisfaction/recompute_sums counts them (edges to other active beliefs), and
// the agent's dissatisfaction sums with them (the maximum degree recomputed). Either end may be
// inactive. Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $edge (map: source_id, target_id), $kind (string: 'manual').
// Returns: source_found, target_found, deleted (booleans), weight (float or null: the edge's),
//          resupport_ids (list of strings: the active supporters left to the target, from which
//          the caller cascades).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (s:Belief {agent_id: $agent_id, id: $edge.source_id})
OPTIONAL MATCH (t:Belief {agent_id: $agent_id, id: $edge.target_id})
OPTIONAL MATCH (s)-[r:SUPPORTS]->(t)
WITH s, t, r, r.weight AS weight, r IS NOT NULL AS deleted
CALL (s, t, r, weight, deleted) {
  WITH s, t, r, weight WHERE deleted
  MATCH (agent:Agent {id: $agent_id})
  DELETE r
  SET s.degree = s.degree - CASE WHEN t.is_active THEN 1 ELSE 0 END,
      t.degree = t.degree - CASE WHEN s.is_active THEN 1 ELSE 0 END,
      agent.d_imp_deg = agent.d_imp_deg - CASE WHEN s.is_active AND t.is_active
                                               THEN s.importance + t.importance ELSE 0.0 END,
      agent.d_t_imp_deg = agent.d_t_imp_deg -
                          CASE WHEN s.is_active AND t.is_active
                               THEN s.tension * s.importance + t.tension * t.importance
                               ELSE 0.0 END
  WITH agent, s, t, weight
  CALL (agent) {
    OPTIONAL MATCH (x:Belief {agent_id: $agent_id, is_active: true})
    WITH agent, coalesce(max(x.degree), 0) AS highest
    SET agent.d_max_degree = highest
  }
  SET agent.event_seq = agent.event_seq + 1
  CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: t.id, kind: $kind,
                         action: 'support_removed', seq: agent.event_seq,
                         old_strength: t.strength, new_strength: t.strength,
                         old_tension: t.tension, new_tension: t.tension,
                         supporter_id: s.id, weight: weight, at: datetime($now),
                         note: 'SUPPORTS from ' + s.id + " ('" + left(s.statement, 120) +
                               "') removed by hand, weight " + toString(weight)})-[:OF]->(t)
}
CALL (t, deleted) {
  OPTIONAL MATCH (kept:Belief)-[:SUPPORTS]->(t)
  WHERE deleted AND kept.is_active
  RETURN collect(DISTINCT kept.id) AS resupport_ids
}
RETURN s IS NOT NULL AS source_found, t IS NOT NULL AS target_found, deleted,
       weight, resupport_ids
