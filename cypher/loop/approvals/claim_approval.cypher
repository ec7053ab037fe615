// Claims a pending approval for one resumption before anything runs (its own short
// transaction), so two answers to the same approval can never both execute its work unit.
// A pending approval past its expiry becomes 'expired' instead; a claim older than the lease
// (a process that died mid-resumption) can be taken over, or expires the approval when it is
// past its expiry.
// Params: $agent_id (string), $approval_id (string), $claim (string: this resumption's id),
//         $lease_s (int: seconds a claim holds).
// Returns: status (string: after this call), claimed (boolean). No row if unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (a:Approval {agent_id: $agent_id, id: $approval_id})
WITH a,
     a.status = 'resuming' AND a.claimed_at < datetime($now) - duration({seconds: $lease_s}) AS stale
// A stale claim past the approval's expiry is not taken over: the approval expires.
WITH a, stale,
     (a.status = 'pending' OR stale) AND a.expires_at IS NOT NULL
       AND a.expires_at < datetime($now) AS expired
WITH a, expired, (a.status = 'pending' OR stale) AND NOT expired AS claiming
SET a.status = CASE WHEN expired THEN 'expired' WHEN claiming THEN 'resuming' ELSE a.status END,
    a.claim = CASE WHEN claiming THEN $claim ELSE a.claim END,
    a.claimed_at = CASE WHEN claiming THEN datetime($now) ELSE a.claimed_at END,
    a.resolved_at = CASE WHEN expired THEN datetime($now) ELSE a.resolved_at END
RETURN a.status AS status, claiming AS claimed
