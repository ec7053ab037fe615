// Gives a claimed approval back (the resumption failed and wrote nothing): pending again.
// Params: $agent_id (string), $approval_id (string), $claim (string).
// Returns: status (string). No row unless this claim held it.
MATCH (a:Approval {agent_id: $agent_id, id: $approval_id})
WHERE a.status = 'resuming' AND a.claim = $claim
SET a.status = 'pending', a.claim = null, a.claimed_at = null
RETURN a.status AS status
