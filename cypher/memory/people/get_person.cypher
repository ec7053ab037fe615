// Reads one person of an agent.
// Params: $agent_id (string), $person_id (string).
// Returns: person (map of properties, or null when the agent has no such person).
//          No row when the agent does not exist.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (p:Person {agent_id: $agent_id, id: $person_id})
RETURN properties(p) AS person
