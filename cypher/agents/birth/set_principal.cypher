// Records the person an agent was born to work for (full birth).
// Params: $agent_id (string), $person_id (string).
// Returns: agent_id (string). No row if either is unknown.
MATCH (a:Agent {id: $agent_id})
MATCH (p:Person {id: $person_id, agent_id: $agent_id})
SET a.principal_id = p.id
RETURN a.id AS agent_id
