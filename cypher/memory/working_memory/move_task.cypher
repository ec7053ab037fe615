// Moves the task a paused turn opened for its approval (the newest, if several) through
// $moves, each transition recorded with its time and cause. Call graph/agent_scope/lock_agent
// first in the same transaction.
// Params: $agent_id (string), $approval_id (string),
//         $moves (non-empty list of maps: state (string), at (datetime), cause (string); oldest
//         first, the last is the task's new state),
//         $open_states (list of strings: the states of a task still open),
//         $from_states (list of strings: move it only from one of these; [] for any).
// Returns: task (map of properties). No row when no task waits on that approval (in
//          $from_states).
MATCH (t:Task {agent_id: $agent_id, approval_id: $approval_id})
WITH t ORDER BY t.started_at DESC, t.id DESC
LIMIT 1
WITH t WHERE $from_states = [] OR t.state IN $from_states
SET t.state = last($moves).state,
    t.ended_at = CASE WHEN last($moves).state IN $open_states THEN null ELSE last($moves).at END,
    t.history_states = coalesce(t.history_states, []) + [move IN $moves | move.state],
    t.history_at = coalesce(t.history_at, []) + [move IN $moves | move.at],
    t.history_causes = coalesce(t.history_causes, []) + [move IN $moves | move.cause]
RETURN properties(t) AS task
