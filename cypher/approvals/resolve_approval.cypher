// Resolves a pending approval (the caller holds the agent lock): a pending one past its expiry
// becomes 'expired' instead, and anything not pending is left as it is.
// Params: $agent_id (string), $approval_id (string), $status (string: approved/rejected/answered/
//         modified), $response (JSON string).
// Returns: approval (map of properties after the change), previous_status (string),
//          resolved (boolean: this call resolved it). No row if unknown.
MATCH (a:Approval {agent_id: $agent_id, id: $approval_id})
WITH a, a.status AS previous_status,
     a.status = 'pending' AND a.expires_at IS NOT NULL AND a.expires_at < datetime() AS expired
WITH a, previous_status, expired, previous_status = 'pending' AND NOT expired AS resolving
SET a.status = CASE WHEN expired THEN 'expired' WHEN resolving THEN $status ELSE a.status END,
    a.response = CASE WHEN resolving THEN $response ELSE a.response END,
    a.resolved_at = CASE WHEN resolving OR expired THEN datetime() ELSE a.resolved_at END
RETURN properties(a) AS approval, previous_status, resolving AS resolved
