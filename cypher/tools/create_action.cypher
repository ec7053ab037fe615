// Records one tool call of a turn (inside the turn's transaction): what was sent, what came of it,
// linked to the tool, the turn's decision and episode, its approval (when a person decides) and
// the beliefs its outcome moved.
// Params: $agent_id (string), $now (datetime),
//         $action (map: id, qualified_name, connection, tool, arguments (JSON string), status,
//         mode, duration_ms (float or null), result (string or null), is_error (bool or null),
//         decision_id, episode_id, approval_id (strings or null), moved (list of belief ids)).
// Returns: id (string).
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
WITH a
OPTIONAL MATCH (t:Tool {agent_id: $agent_id, qualified_name: $action.qualified_name})
FOREACH (_ IN CASE WHEN t IS NULL THEN [] ELSE [1] END | MERGE (a)-[:CALLED]->(t))
WITH a
OPTIONAL MATCH (d:Decision {agent_id: $agent_id, id: $action.decision_id})
FOREACH (_ IN CASE WHEN d IS NULL THEN [] ELSE [1] END | MERGE (d)-[:TOOK]->(a))
WITH a
OPTIONAL MATCH (e:Episode {agent_id: $agent_id, id: $action.episode_id})
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (a)-[:IN_EPISODE]->(e))
WITH a
OPTIONAL MATCH (p:Approval {agent_id: $agent_id, id: $action.approval_id})
FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | MERGE (p)-[:FOR_ACTION]->(a))
WITH a
CALL (a) {
  UNWIND $action.moved AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  MERGE (a)-[:MOVED]->(b)
  RETURN count(b) AS moved
}
RETURN a.id AS id
