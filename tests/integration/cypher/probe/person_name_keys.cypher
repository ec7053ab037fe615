// The name and name_key of an agent's people (the V0034 test).
// Params: $agent_id (string).
// Returns: id, name, name_key, ordered by id.
MATCH (p:Person {agent_id: $agent_id})
RETURN p.id AS id, p.name AS name, p.name_key AS name_key
ORDER BY id
