// Writes 'expired' on a pending approval past its expiry; leaves any other approval alone.
// Params: $agent_id (string), $approval_id (string).
// Returns: status (string). No row if unknown.
MATCH (a:Approval {agent_id: $agent_id, id: $approval_id})
SET a.status = CASE WHEN a.status = 'pending' AND a.expires_at IS NOT NULL
                         AND a.expires_at < datetime() THEN 'expired' ELSE a.status END
RETURN a.status AS status
