// The records of a turn that calls a tool, in one round trip of its transaction (after its
// episode, outcome and approval are written): the decision with its reasons and the beliefs it
// used (as loop/decisions/create_decision), the Action with what was sent and what came of it,
// linked to the tool, the decision, the episode, the approval and the beliefs its outcome moved
// (as tools/create_action), and the episode completed with the answer and how the turn ran (as
// loop/episode_rows/complete_turn_episode).
// Params: $agent_id (string), $now (datetime),
//         $decision (map: id, description (string), confidence (float), stakes (string),
//         mode (string), work_unit (JSON string), verb (string), execution_status (string or
//         null), outcome (string), executor (string or null)),
//         $reasons (list of maps: text (string), weight (float)), $used (list of belief ids),
//         $action (map: id, qualified_name, connection, tool, arguments (JSON string), status,
//         mode, duration_ms (float or null), result (string or null), is_error (bool or null),
//         decision_id, episode_id, approval_id (strings or null), moved (list of belief ids)),
//         $episode_id (string), $turn (map: response (string), supervision_mode (string),
//         dissatisfaction (float), revision_triggered (boolean), frame (string), decision_id
//         (string or null), model_calls (int), input_tokens (int), output_tokens (int),
//         reasoners (list of strings)).
// Returns: decision_id (string), action_id (string), episode_id (string).
CREATE (d:Decision {id: $decision.id, agent_id: $agent_id})
SET d.description = $decision.description,
    d.confidence = $decision.confidence,
    d.stakes = $decision.stakes,
    d.mode = $decision.mode,
    d.work_unit = $decision.work_unit,
    d.verb = $decision.verb,
    d.execution_status = $decision.execution_status,
    d.outcome = $decision.outcome,
    d.executor = $decision.executor,
    d.created_at = datetime()
WITH d
CALL (d) {
  UNWIND $reasons AS reason
  CREATE (r:Reason {id: randomUUID(), agent_id: $agent_id, text: reason.text,
                    weight: reason.weight})
  CREATE (d)-[:BECAUSE]->(r)
}
CALL (d) {
  UNWIND $used AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  MERGE (d)-[:USED]->(b)
}
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
CREATE (a:Action {id: $action.id, agent_id: $agent_id})
SET a.qualified_name = $action.qualified_name,
    a.connection = $action.connection,
    a.tool = $action.tool,
    a.arguments = $action.arguments,
    a.status = $action.status,
    a.mode = $action.mode,
    a.duration_ms = $action.duration_ms,
    a.result = $action.result,
    a.is_error = $action.is_error,
    a.decision_id = $action.decision_id,
    a.episode_id = $action.episode_id,
    a.approval_id = $action.approval_id,
    a.created_at = $now,
    a.completed_at = CASE WHEN $action.status IN ['pending'] THEN null ELSE $now END
CREATE (d)-[:TOOK]->(a)
CREATE (a)-[:IN_EPISODE]->(e)
CREATE (d)-[:IN_TURN]->(e)
WITH d, a, e
CALL (a) {
  MATCH (t:Tool {agent_id: $agent_id, qualified_name: $action.qualified_name})
  MERGE (a)-[:CALLED]->(t)
}
CALL (a) {
  MATCH (p:Approval {agent_id: $agent_id, id: $action.approval_id})
  MERGE (p)-[:FOR_ACTION]->(a)
}
CALL (a) {
  UNWIND $action.moved AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  MERGE (a)-[:MOVED]->(b)
}
SET e.response = $turn.response,
    e.supervision_mode = $turn.supervision_mode,
    e.dissatisfaction = $turn.dissatisfaction,
    e.revision_triggered = $turn.revision_triggered,
    e.model_calls = $turn.model_calls,
    e.input_tokens = $turn.input_tokens,
    e.output_tokens = $turn.output_tokens,
    e.reasoners = $turn.reasoners,
    e.kind = 'turn'
WITH d, a, e
CALL (e) {
  MATCH (f:Frame {agent_id: $agent_id, key: $turn.frame})
  MERGE (e)-[:IN_FRAME]->(f)
}
CALL (e) {
  MATCH (e)-[:IN_SESSION]->(s:Session)
  SET s.last_active = e.occurred_at
}
RETURN d.id AS decision_id, a.id AS action_id, e.id AS episode_id
