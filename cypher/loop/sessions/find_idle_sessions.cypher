// The agent's chat sessions left open: not closed, last active (a turn's completion) before
// $before, the longest idle first.
// Params: $agent_id (string), $before (datetime), $limit (int).
// Returns: key (string), last_active (datetime).
MATCH (s:Session {agent_id: $agent_id})
WHERE s.closed_at IS NULL AND s.last_active < $before
RETURN s.key AS key, s.last_active AS last_active
ORDER BY s.last_active
LIMIT $limit
