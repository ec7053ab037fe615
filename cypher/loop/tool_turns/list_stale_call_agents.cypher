// The agents with tool calls left 'running' that started before $before (what
// loop/tool_turns/interrupt_stale_calls marks interrupted, one agent at a time), each once.
// Params: $before (datetime).
// Returns: agent_id (string), one row per agent.
MATCH (a:Action)
WHERE a.status = 'running' AND a.created_at < $before
RETURN DISTINCT a.agent_id AS agent_id
ORDER BY agent_id
