// A tool call recorded while it ran whose turn failed before what came of the call was known
// (its verification raised): its Action 'interrupted' with $why as its result, its decision's
// outcome 'neutral'. Only a running Action is changed.
// Params: $agent_id (string), $action_id (string), $now (datetime), $why (string).
// Returns: action_id (string). No row when the Action is gone or not running.
MATCH (a:Action {agent_id: $agent_id, id: $action_id})
WHERE a.status = 'running'
SET a.status = 'interrupted', a.result = $why, a.completed_at = $now
WITH a
CALL (a) {
  MATCH (d:Decision {agent_id: $agent_id, id: a.decision_id})
  SET d.outcome = 'neutral', d.execution_status = 'interrupted'
}
RETURN a.id AS action_id
