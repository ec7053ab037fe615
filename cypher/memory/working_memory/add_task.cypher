// Opens a task in working memory with the transitions it made so far, and evicts the oldest open
// tasks beyond what may stay open (the new task is always kept; a task waiting for a person goes
// only when every other open task is waiting too, the oldest of them first). Call
// graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $now (datetime: when the task started),
//         $task (map: id, description, source, verb (string or null), approval_id (string or
//         null)),
//         $moves (non-empty list of maps: state (string), at (datetime), cause (string); oldest
//         first, the last is the task's state),
//         $open_states (list of strings: the states of a task still open),
//         $waiting_states (list of strings: the open states of a task waiting for a person),
//         $keep (int >= 0: how many other open tasks stay open),
//         $evicted_cause (string: the cause recorded on an evicted task).
// Returns: task (map of the Task's properties), evicted (list of ids of the evicted tasks).
MATCH (agent:Agent {id: $agent_id})
CREATE (t:Task {id: $task.id, agent_id: $agent_id})
SET t.description = $task.description,
    t.source = $task.source,
    t.verb = $task.verb,
    t.approval_id = $task.approval_id,
    t.state = last($moves).state,
    t.started_at = $now,
    t.ended_at = CASE WHEN last($moves).state IN $open_states THEN null ELSE last($moves).at END,
    t.history_states = [move IN $moves | move.state],
    t.history_at = [move IN $moves | move.at],
    t.history_causes = [move IN $moves | move.cause]
WITH t
CALL (t) {
  MATCH (old:Task {agent_id: $agent_id})
  WHERE old.state IN $open_states AND old <> t
  WITH old ORDER BY old.state IN $waiting_states DESC, old.started_at DESC, old.id DESC
  SKIP $keep
  SET old.state = 'evicted',
      old.ended_at = $now,
      old.history_states = coalesce(old.history_states, []) + 'evicted',
      old.history_at = coalesce(old.history_at, []) + $now,
      old.history_causes = coalesce(old.history_causes, []) + $evicted_cause
  RETURN collect(old.id) AS evicted
}
RETURN properties(t) AS task, evicted
