// Resolves an approval this resumption claimed (loop/approvals/claim_approval), inside the
// resumed turn's transaction (the caller holds the agent lock).
// Params: $agent_id (string), $approval_id (string), $claim (string), $status (string:
//         approved/rejected/answered/modified), $response (JSON string),
//         $modified_work_unit (JSON string or null: the unit a `modify` answer ran instead of
//         the proposed one, kept beside it in work_unit).
// Returns: approval (map of properties after the change), previous_status (string),
//          resolved (boolean: false when the claim was lost). No row if unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (a:Approval {agent_id: $agent_id, id: $approval_id})
WITH a, a.status AS previous_status, a.status = 'resuming' AND a.claim = $claim AS resolving
SET a.status = CASE WHEN resolving THEN $status ELSE a.status END,
    a.response = CASE WHEN resolving THEN $response ELSE a.response END,
    a.modified_work_unit = CASE WHEN resolving THEN $modified_work_unit
                                ELSE a.modified_work_unit END,
    a.resolved_at = CASE WHEN resolving THEN datetime($now) ELSE a.resolved_at END,
    a.claim = CASE WHEN resolving THEN null ELSE a.claim END
RETURN properties(a) AS approval, previous_status, resolving AS resolved
