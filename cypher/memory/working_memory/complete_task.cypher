// Marks an open task completed (the transition recorded with its cause); a task in another state
// is returned unchanged (the caller refuses an evicted or cancelled one).
// Params: $agent_id (string), $task_id (string), $now (datetime), $cause (string),
//         $open_states (list of strings: the states of a task still open).
// Returns: task (map of properties). No row when the agent has no such task.
MATCH (t:Task {agent_id: $agent_id, id: $task_id})
CALL (t) {
  WITH t WHERE t.state IN $open_states
  SET t.state = 'completed',
      t.ended_at = $now,
      t.history_states = coalesce(t.history_states, []) + 'completed',
      t.history_at = coalesce(t.history_at, []) + $now,
      t.history_causes = coalesce(t.history_causes, []) + $cause
}
RETURN properties(t) AS task
