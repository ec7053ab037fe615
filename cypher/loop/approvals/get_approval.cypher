// One approval of the agent.
// Params: $agent_id (string), $approval_id (string).
// Returns: approval (map of properties). No row if unknown.
MATCH (a:Approval {agent_id: $agent_id, id: $approval_id})
RETURN properties(a) AS approval
