// Test probe: the lifecycle flags of an agent's rules.
// Params: $agent_id (string). Returns: id (string), is_active (boolean or null), ordered by id.
MATCH (r:Rule {agent_id: $agent_id})
RETURN r.id AS id, r.is_active AS is_active
ORDER BY id
