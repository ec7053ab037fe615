// Marks an active task completed; a task in another state is returned unchanged.
// Params: $agent_id (string), $task_id (string), $now (datetime).
// Returns: task (map of properties). No row when the agent has no such task.
MATCH (t:Task {agent_id: $agent_id, id: $task_id})
SET t.ended_at = CASE WHEN t.state = 'active' THEN $now ELSE t.ended_at END,
    t.state = CASE WHEN t.state = 'active' THEN 'completed' ELSE t.state END
RETURN properties(t) AS task
