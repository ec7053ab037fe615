// Replaces the agent's list of knowledge gaps (the service merged it under the agent's lock).
// Params: $agent_id (string), $gaps (list of strings).
// Returns: knowledge_gaps (list of strings). No row for an unknown agent.
MATCH (a:Agent {id: $agent_id})
SET a.knowledge_gaps = $gaps
RETURN a.knowledge_gaps AS knowledge_gaps
