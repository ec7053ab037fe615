// Records that two beliefs contradict each other (in either direction: one edge per pair), or
// updates the pair's strength / status / resolution: the conflict register.
// Params: $agent_id (string), $edge (map: source_id, target_id, strength float 0..1 or null,
//         status 'open'|'resolved' or null, resolution string or null),
//         $kind (string: the events' kind, 'manual' for a pair recorded by hand, 'learned' for
//         one a turn taught).
// A new pair adds one to the degree of both beliefs, and the agent's dissatisfaction sums
// follow. Both beliefs must be active. A new pair, or one whose strength, status or resolution
// changed, writes a BeliefEvent on each of the two beliefs (kind $kind, action
// 'contradiction_recorded', 'contradiction_resolved', 'contradiction_reopened' or
// 'contradiction_updated', contradicting_id (the other belief), strength, status, resolution,
// note; strength and tension unchanged); a call that changes nothing writes nothing.
// Returns: source_found, target_found, source_active, target_active (booleans), created
//          (boolean), strength (float or null),
//          status (string or null), resolution (string or null).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (s:Belief {agent_id: $agent_id, id: $edge.source_id})
OPTIONAL MATCH (t:Belief {agent_id: $agent_id, id: $edge.target_id})
CALL (s, t) {
  WITH s, t WHERE s IS NOT NULL AND t IS NOT NULL AND s <> t AND s.is_active AND t.is_active
  OPTIONAL MATCH (s)-[existing:CONTRADICTS]-(t)
  WITH s, t, existing,
       [existing.strength, existing.status, coalesce(existing.resolution, '')] AS before
  MERGE (s)-[c:CONTRADICTS]-(t)
    ON CREATE SET c.created_at = datetime($now), c.strength = 1.0, c.status = 'open'
  SET c.strength = coalesce(toFloat($edge.strength), c.strength),
      c.status = coalesce($edge.status, c.status),
      c.resolution = coalesce($edge.resolution, c.resolution),
      c.resolved_at = CASE WHEN $edge.status = 'resolved' THEN datetime($now)
                           WHEN $edge.status = 'open' THEN null ELSE c.resolved_at END
  WITH s, t, c, existing IS NULL AS created, before
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
  CALL (s, t, c, created, before) {
    WITH s, t, c, created, before
      WHERE created OR before <> [c.strength, c.status, coalesce(c.resolution, '')]
    MATCH (agent:Agent {id: $agent_id})
    WITH agent, c,
         CASE WHEN created THEN 'contradiction_recorded'
              WHEN before[1] <> c.status AND c.status = 'resolved' THEN 'contradiction_resolved'
              WHEN before[1] <> c.status THEN 'contradiction_reopened'
              ELSE 'contradiction_updated' END AS action,
         [[s, t], [t, s]] AS ends
    UNWIND ends AS end
    WITH agent, c, action, end[0] AS b, end[1] AS other
    CALL (agent, c, action, b, other) {
      SET agent.event_seq = agent.event_seq + 1
      CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: $kind,
                             action: action, seq: agent.event_seq,
                             old_strength: b.strength, new_strength: b.strength,
                             old_tension: b.tension, new_tension: b.tension,
                             contradicting_id: other.id, strength: c.strength,
                             status: c.status, resolution: c.resolution, at: datetime($now),
                             note: 'CONTRADICTS ' + other.id + " ('" + left(other.statement, 120) +
                                   "') " + substring(action, 14) + ' ' +
                                   CASE $kind WHEN 'manual' THEN 'by hand'
                                     WHEN 'learned' THEN 'by a turn' ELSE 'by ' + $kind END +
                                   ', strength ' + toString(c.strength) + ', ' + c.status +
                                   coalesce(': ' + c.resolution, '')})-[:OF]->(b)
    }
  }
  RETURN created, c.strength AS strength, c.status AS status, c.resolution AS resolution
  UNION
  WITH s, t
  WHERE s IS NULL OR t IS NULL OR s = t OR NOT s.is_active OR NOT t.is_active
  RETURN false AS created, null AS strength, null AS status, null AS resolution
}
RETURN s IS NOT NULL AS source_found, t IS NOT NULL AS target_found,
       coalesce(s.is_active, false) AS source_active, coalesce(t.is_active, false) AS target_active,
       created, strength, status, resolution
