// Probe: every SUPPORTS and CONTRADICTS edge between an agent's beliefs, named by the beliefs'
// pack keys. Params: $agent_id (string).
// Returns: type, source, target (strings: pack keys), props (map: the edge's properties),
//          one row per edge, ordered.
MATCH (s:Belief {agent_id: $agent_id})-[r:SUPPORTS|CONTRADICTS]->(t:Belief {agent_id: $agent_id})
RETURN type(r) AS type, s.pack_key AS source, t.pack_key AS target, properties(r) AS props
ORDER BY type, source, target
