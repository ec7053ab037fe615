// Investigations left running (by this process or one that died), oldest first, across agents
// or for one agent.
// Params: $agent_id (string or null: every agent).
// Returns: agent_id (string), investigation_id (string).
MATCH (i:Investigation)
WHERE i.status = 'running' AND ($agent_id IS NULL OR i.agent_id = $agent_id)
RETURN i.agent_id AS agent_id, i.id AS investigation_id
ORDER BY i.started_at
