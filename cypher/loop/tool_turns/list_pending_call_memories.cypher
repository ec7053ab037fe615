// The tool calls whose memory is still to be written (a process stopped between a call's answer and
// its memory), oldest first, for the runtime to write when it starts.
// Params: $limit (int).
// Returns: agent_id (string), action_id (string).
MATCH (a:Action)
WHERE a.memory_pending IS NOT NULL
RETURN a.agent_id AS agent_id, a.id AS action_id
ORDER BY a.created_at
LIMIT $limit
