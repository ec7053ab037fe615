// The record of a turn that calls a tool, in one round trip: the agent's lock first (as
// graph/agent_scope/lock_agent, so a call that asks nobody is this query alone, its own
// transaction; a proposal runs it after lock_agent and its approval, and takes the lock it holds
// again), then the decision with its reasons and the beliefs it used
// (as loop/decisions/create_decision), and the Action with what was sent and what came of it,
// linked to the tool, the decision, the approval and the beliefs its outcome moves (as
// tools/create_action). The turn's episode and what the outcome teaches are written right after
// the answer (app/loop/call_memory.py): the Action holds them in memory_pending until then, so a
// process that stops first leaves them for the next one. The decision and the Action are new, so
// their edges are created, not merged ($used and $action.moved hold no id twice).
// Params: $agent_id (string), $now (datetime),
//         $decision (map: id, description (string), confidence (float), stakes (string),
//         mode (string), work_unit (JSON string), verb (string), execution_status (string or
//         null), outcome (string), executor (string or null)),
//         $reasons (list of maps: text (string), weight (float)), $used (list of belief ids),
//         $action (map: id, qualified_name, connection, tool, arguments (JSON string), status,
//         mode, duration_ms (float or null), result (string or null), is_error (bool or null),
//         decision_id, episode_id, approval_id (strings or null), moved (list of belief ids)),
//         $memory (JSON string: the call's memory, app/loop/call_memory.py CallMemory).
// Returns: decision_id (string), action_id (string). No row (nothing written) when the agent does
// not exist or is being deleted.
MATCH (:Agent {id: $agent_id})
MERGE (l:AgentLock {of_agent: $agent_id})
SET l.write_count = coalesce(l.write_count, 0) + 1
WITH l
MATCH (ag:Agent {id: $agent_id})
WHERE ag.deleting IS NULL
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
  CREATE (d)-[:USED]->(b)
}
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
    a.completed_at = CASE WHEN $action.status IN ['pending'] THEN null ELSE $now END,
    a.memory_pending = $memory
CREATE (d)-[:TOOK]->(a)
WITH d, a
CALL (a) {
  MATCH (t:Tool {agent_id: $agent_id, qualified_name: $action.qualified_name})
  CREATE (a)-[:CALLED]->(t)
}
CALL (a) {
  MATCH (p:Approval {agent_id: $agent_id, id: $action.approval_id})
  CREATE (p)-[:FOR_ACTION]->(a)
}
CALL (a) {
  UNWIND $action.moved AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  CREATE (a)-[:MOVED]->(b)
}
RETURN d.id AS decision_id, a.id AS action_id
