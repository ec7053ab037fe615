// The outcome of a tool call that ran while its record was written (loop/tool_turns/record_call
// left its Action 'running' and its decision's outcome 'running'), in the transaction that writes
// the call's memory, under the agent's lock: the Action's status, duration and result, the
// decision's outcome, and the beliefs the outcome moves. Only a running Action is completed, so the
// outcome and the memory written with it are written once. Run alone with $memory when that
// transaction failed, or the turn failed after the call's answer was made: the memory is then left
// on the Action for loop/tool_turns/claim_call_memory (the next start writes it).
// Params: $agent_id (string), $now (datetime), $memory (JSON string or null: the call's memory,
//         left to be written later),
//         $decision (map: id, execution_status (string), outcome (string), final_confidence
//         (float or null: what the outcome makes its confidence; null keeps it), executor (string
//         or null)),
//         $action (map: id, status (string), duration_ms (float or null), result (string or
//         null), is_error (bool or null), moved (list of belief ids, none twice)).
// Returns: action_id (string). No row when the Action is gone or not running any more.
MATCH (a:Action {agent_id: $agent_id, id: $action.id})
WHERE a.status = 'running'
SET a.status = $action.status,
    a.duration_ms = $action.duration_ms,
    a.result = $action.result,
    a.is_error = $action.is_error,
    a.completed_at = $now,
    a.memory_pending = $memory
WITH a
CALL (a) {
  MATCH (d:Decision {agent_id: $agent_id, id: $decision.id})
  SET d.execution_status = $decision.execution_status,
      d.outcome = $decision.outcome,
      d.confidence = coalesce($decision.final_confidence, d.confidence),
      d.executor = $decision.executor
}
CALL (a) {
  UNWIND $action.moved AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  CREATE (a)-[:MOVED]->(b)
}
RETURN a.id AS action_id
