// One investigation of the agent.
// Params: $agent_id (string), $investigation_id (string).
// Returns: investigation (map of properties). No row if unknown.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
RETURN properties(i) AS investigation
