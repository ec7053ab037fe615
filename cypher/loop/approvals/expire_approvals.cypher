// Expires an agent's approvals nobody answered in time and finds the tasks still waiting on
// an expired approval (app/loop/approvals.py, expire_overdue): a pending one past its expiry,
// and a resuming one past its expiry whose claim is older than the lease (its process died; a
// live claim is never expired under its resumption), as claim_approval does when answered.
// Idempotent: an approval already expired is not expired again, and the caller moves only a
// task still awaiting input. Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $lease_s (int: seconds a claim holds).
// Returns: expired (list of strings: ids of the approvals this call expired),
//          waiting (list of strings: ids of expired approvals, by this call or before, whose
//          task still awaits input). One row.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CALL () {
  OPTIONAL MATCH (a:Approval {agent_id: $agent_id})
  WHERE a.status IN ['pending', 'resuming']
    AND a.expires_at IS NOT NULL AND a.expires_at < datetime($now)
    AND (a.status = 'pending'
         OR a.claimed_at < datetime($now) - duration({seconds: $lease_s}))
  SET a.status = 'expired', a.resolved_at = datetime($now)
  RETURN collect(a.id) AS expired
}
CALL () {
  OPTIONAL MATCH (t:Task {agent_id: $agent_id, state: 'awaiting_input'})
  WHERE t.approval_id IS NOT NULL
    AND EXISTS { MATCH (:Approval {agent_id: $agent_id, id: t.approval_id, status: 'expired'}) }
  RETURN collect(DISTINCT t.approval_id) AS waiting
}
RETURN expired, waiting
