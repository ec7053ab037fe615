// Moves an investigation from one of the allowed statuses to a new one (pause, resume, cancel,
// fail). The status is what the runner reads between steps.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $investigation_id (string), $from (list of strings: statuses it
//         may move from), $to (string), $error (string or null: why it failed).
// Returns: old_status (string), status (string: after this call), changed (boolean).
//          No row if unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
WITH i, i.status AS old_status, i.status IN $from AS changed
SET i.status = CASE WHEN changed THEN $to ELSE i.status END,
    i.error = CASE WHEN changed THEN $error ELSE i.error END,
    i.finished_at = CASE WHEN changed AND $to IN ['cancelled', 'failed'] THEN datetime($now)
                         ELSE i.finished_at END
RETURN old_status, i.status AS status, changed
