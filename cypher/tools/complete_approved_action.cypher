// Writes how a tool call that waited for a person turned out (inside the resumed turn's
// transaction): its status, the arguments that ran (a person may have modified them), the
// result, the resumed turn's episode and the beliefs the outcome moved.
// Params: $agent_id (string), $approval_id (string), $now (datetime),
//         $action (map: arguments (JSON string or null: unchanged), status, duration_ms (float
//         or null), result (string or null), is_error (bool or null), episode_id (string),
//         moved (list of belief ids)).
// Returns: id (string). No row when the approval has no action.
MATCH (a:Action {agent_id: $agent_id, approval_id: $approval_id})
SET a.status = $action.status,
    a.arguments = coalesce($action.arguments, a.arguments),
    a.duration_ms = $action.duration_ms,
    a.result = $action.result,
    a.is_error = $action.is_error,
    a.resumed_episode_id = $action.episode_id,
    a.completed_at = $now
WITH a
OPTIONAL MATCH (e:Episode {agent_id: $agent_id, id: $action.episode_id})
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (a)-[:IN_EPISODE]->(e))
WITH a
CALL (a) {
  UNWIND $action.moved AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  MERGE (a)-[:MOVED]->(b)
  RETURN count(b) AS moved
}
RETURN a.id AS id
