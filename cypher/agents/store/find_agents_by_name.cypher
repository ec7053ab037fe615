// Agents with a given name (oldest first).
// Params: $agent_name (string).
// Returns: id (string), birth_source (string).
MATCH (a:Agent)
WHERE a.name = $agent_name
RETURN a.id AS id, a.birth_source AS birth_source
ORDER BY a.created_at
