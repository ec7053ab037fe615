// Adds an active task and evicts the oldest active tasks beyond $max_active (the new task is
// always kept). Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $task (map: id, description, source), $max_active (int >= 1),
//         $now (datetime).
// Returns: task (map of the Task's properties), evicted (list of ids of the evicted tasks).
MATCH (agent:Agent {id: $agent_id})
CREATE (t:Task {id: $task.id, agent_id: $agent_id})
SET t.description = $task.description,
    t.source = $task.source,
    t.state = 'active',
    t.started_at = $now
WITH t
CALL (t) {
  MATCH (old:Task {agent_id: $agent_id, state: 'active'})
  WHERE old <> t
  WITH old ORDER BY old.started_at DESC, old.id DESC
  SKIP $max_active - 1
  SET old.state = 'evicted', old.ended_at = $now
  RETURN collect(old.id) AS evicted
}
RETURN properties(t) AS task, evicted
