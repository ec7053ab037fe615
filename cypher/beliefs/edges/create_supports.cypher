// Creates (or re-weights) source -[:SUPPORTS {weight}]-> target unless it would close a cycle;
// the cycle, if any, is returned instead. Call graph/agent_scope/lock_agent first (so two writers cannot
// close a cycle between them); run beliefs/cascade/cascade_strength from the source afterwards.
// Params: $agent_id (string), $edge (map: source_id, target_id, weight float in (0, 1]),
//         $kind (string: the event's kind, 'manual' for an edge made by hand, 'learned' for one
//         a turn taught).
// A new edge adds one to the degree of both beliefs, and the agent's dissatisfaction sums
// follow. Both beliefs must be active. A new edge, or one given another weight, writes a
// BeliefEvent on the target (kind $kind, action 'support_linked' or 'support_reweighed',
// supporter_id, weight, old_weight (null when new), note; strength and tension unchanged: the
// cascade the caller runs next records the move). The same weight again writes nothing.
// Returns: source_found, target_found, source_active, target_active (booleans), cycle (list of
//          belief ids from the target back to the source, or null), created (boolean: a new
//          edge), weight (float or null).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (s:Belief {agent_id: $agent_id, id: $edge.source_id})
OPTIONAL MATCH (t:Belief {agent_id: $agent_id, id: $edge.target_id})
CALL (s, t) {
  OPTIONAL MATCH cycle = SHORTEST 1 (t)-[:SUPPORTS]->+(s)
  WHERE s IS NOT NULL AND t IS NOT NULL
  RETURN CASE WHEN s IS NOT NULL AND s = t THEN [s.id, s.id]
              WHEN cycle IS NULL THEN null
              ELSE [n IN nodes(cycle) | n.id] + [t.id] END AS cycle
}
CALL (s, t, cycle) {
  WITH s, t, cycle
  WHERE s IS NOT NULL AND t IS NOT NULL AND cycle IS NULL AND s.is_active AND t.is_active
  OPTIONAL MATCH (s)-[existing:SUPPORTS]->(t)
  WITH s, t, existing, existing.weight AS old_weight
  MERGE (s)-[r:SUPPORTS]->(t)
    ON CREATE SET r.created_at = datetime($now)
  SET r.weight = toFloat($edge.weight)
  WITH s, t, r, existing IS NULL AS created, old_weight
  CALL (s, t, created) {
    WITH s, t WHERE created
    MATCH (agent:Agent {id: $agent_id})
    SET s.degree = s.degree + 1,
        t.degree = t.degree + 1,
        agent.d_imp_deg = agent.d_imp_deg + s.importance + t.importance,
        agent.d_t_imp_deg = agent.d_t_imp_deg + s.tension * s.importance + t.tension * t.importance
    SET agent.d_max_degree = CASE WHEN s.degree > agent.d_max_degree THEN s.degree
                                  ELSE agent.d_max_degree END
    SET agent.d_max_degree = CASE WHEN t.degree > agent.d_max_degree THEN t.degree
                                  ELSE agent.d_max_degree END
  }
  CALL (s, t, r, created, old_weight) {
    WITH s, t, r, created, old_weight WHERE created OR old_weight <> r.weight
    MATCH (agent:Agent {id: $agent_id})
    SET agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: t.id, kind: $kind,
                           action: CASE WHEN created THEN 'support_linked'
                                        ELSE 'support_reweighed' END,
                           seq: agent.event_seq,
                           old_strength: t.strength, new_strength: t.strength,
                           old_tension: t.tension, new_tension: t.tension,
                           supporter_id: s.id, weight: r.weight, old_weight: old_weight,
                           at: datetime($now),
                           note: 'SUPPORTS from ' + s.id + " ('" + left(s.statement, 120) + "') " +
                                 CASE WHEN created THEN 'linked ' ELSE 're-weighed ' END +
                                 CASE $kind WHEN 'manual' THEN 'by hand'
                                   WHEN 'learned' THEN 'by a turn' ELSE 'by ' + $kind END +
                                 ', weight ' +
                                 CASE WHEN created THEN '' ELSE toString(old_weight) + ' -> ' END +
                                 toString(r.weight)})-[:OF]->(t)
  }
  RETURN created, r.weight AS weight
  UNION
  WITH s, t, cycle
  WHERE s IS NULL OR t IS NULL OR cycle IS NOT NULL OR NOT s.is_active OR NOT t.is_active
  RETURN false AS created, null AS weight
}
RETURN s IS NOT NULL AS source_found, t IS NOT NULL AS target_found,
       coalesce(s.is_active, false) AS source_active, coalesce(t.is_active, false) AS target_active,
       cycle, created, weight
