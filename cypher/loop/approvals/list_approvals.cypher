// The agent's approvals, newest first; pending ones past their expiry are reported as expired
// (the status is written when someone tries to resolve them).
// Params: $agent_id (string), $status (string or null: any), $limit (int).
// Returns: approval (map of properties, status as it stands now).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (a:Approval {agent_id: $agent_id})
WITH a, CASE WHEN a.status = 'pending' AND a.expires_at IS NOT NULL AND a.expires_at < datetime($now)
             THEN 'expired' ELSE a.status END AS status
WHERE $status IS NULL OR status = $status
RETURN a {.*, status: status} AS approval
ORDER BY a.created_at DESC
LIMIT $limit
