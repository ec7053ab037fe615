// The agent's tool calls, newest first (optionally of one status or one tool).
// Params: $agent_id (string), $status (string or null), $qualified_name (string or null),
//         $skip (int), $limit (int).
// Returns: action (map of the Action's properties).
MATCH (a:Action {agent_id: $agent_id})
WHERE ($status IS NULL OR a.status = $status)
  AND ($qualified_name IS NULL OR a.qualified_name = $qualified_name)
RETURN properties(a) AS action
ORDER BY a.created_at DESC, a.id DESC
SKIP $skip LIMIT $limit
