// Finds an agent's person by case-insensitive name (the oldest, if several share it).
// Params: $agent_id (string), $name_key (string: the lower-cased name, whitespace collapsed).
// Returns: person (map of properties, or null when nobody has that name).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (p:Person {agent_id: $agent_id, name_key: $name_key})
WITH p ORDER BY p.created_at, p.id
LIMIT 1
RETURN properties(p) AS person
