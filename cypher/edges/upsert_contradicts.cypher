// Records that two beliefs contradict each other (in either direction: one edge per pair), or
// updates the pair's strength / status / resolution: the conflict register.
// Params: $agent_id (string), $edge (map: source_id, target_id, strength float 0..1 or null,
//         status 'open'|'resolved' or null, resolution string or null).
// Returns: source_found, target_found (booleans), created (boolean), strength (float or null),
//          status (string or null), resolution (string or null).
OPTIONAL MATCH (s:Belief {agent_id: $agent_id, id: $edge.source_id})
OPTIONAL MATCH (t:Belief {agent_id: $agent_id, id: $edge.target_id})
CALL (s, t) {
  WITH s, t WHERE s IS NOT NULL AND t IS NOT NULL AND s <> t
  OPTIONAL MATCH (s)-[existing:CONTRADICTS]-(t)
  MERGE (s)-[c:CONTRADICTS]-(t)
    ON CREATE SET c.created_at = datetime(), c.strength = 1.0, c.status = 'open'
  SET c.strength = coalesce(toFloat($edge.strength), c.strength),
      c.status = coalesce($edge.status, c.status),
      c.resolution = coalesce($edge.resolution, c.resolution),
      c.resolved_at = CASE WHEN $edge.status = 'resolved' THEN datetime()
                           WHEN $edge.status = 'open' THEN null ELSE c.resolved_at END
  RETURN existing IS NULL AS created, c.strength AS strength, c.status AS status,
         c.resolution AS resolution
  UNION
  WITH s, t WHERE s IS NULL OR t IS NULL OR s = t
  RETURN false AS created, null AS strength, null AS status, null AS resolution
}
RETURN s IS NOT NULL AS source_found, t IS NOT NULL AS target_found, created, strength, status,
       resolution
