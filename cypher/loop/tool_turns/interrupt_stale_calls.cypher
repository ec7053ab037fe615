// The tool calls a stopped process left 'running' (recorded while they ran, their outcome never
// written: loop/tool_turns/complete_call), started before $before, marked 'interrupted' with $why
// as their result, their decisions' outcome 'neutral' (nothing is learned from them): every
// agent's when the runtime starts, one agent's with its idle sessions' sweep; $before leaves out
// the calls another process may still be running.
// Params: $agent_id (string or null: every agent), $before (datetime), $now (datetime),
//         $why (string).
// Returns: interrupted (int).
MATCH (a:Action)
WHERE a.status = 'running' AND a.created_at < $before
  AND ($agent_id IS NULL OR a.agent_id = $agent_id)
SET a.status = 'interrupted', a.result = $why, a.completed_at = $now
WITH a
OPTIONAL MATCH (d:Decision {agent_id: a.agent_id, id: a.decision_id})
SET d.outcome = 'neutral', d.execution_status = 'interrupted'
RETURN count(a) AS interrupted
