// The tool calls that waited on approvals which expired unanswered: a call still pending is
// marked not_executed (it never ran) at $now, with why in its result. Idempotent: only a
// pending Action moves. The caller holds the agent's lock (app/loop/approvals.py,
// expire_overdue).
// Params: $agent_id (string), $approval_ids (list of strings: the expired approvals),
//         $now (datetime).
// Returns: id (string) per Action marked.
UNWIND $approval_ids AS approval_id
MATCH (a:Action {agent_id: $agent_id, approval_id: approval_id})
WHERE a.status = 'pending'
SET a.status = 'not_executed',
    a.result = 'not executed: approval ' + approval_id + ' expired before anyone answered it',
    a.completed_at = $now
RETURN a.id AS id
