// The tool calls whose outcomes moved a belief (app/tools: Action -[:MOVED]-> Belief), newest
// first: why the agent trusts a tool as much as it does.
// Params: $agent_id (string), $belief_id (string), $limit (int).
// Returns: tool (string: connection.tool), status (string), mode (string), result (string or
// null), at (datetime or null), succeeded (int), failed (int) — the last two count every call
// that moved the belief, and repeat on each row.
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
OPTIONAL MATCH (a:Action)-[:MOVED]->(b)
WITH b, a ORDER BY a.completed_at DESC, a.id DESC
WITH b, collect(a) AS actions
UNWIND (CASE WHEN size(actions) = 0 THEN [null] ELSE actions[..$limit] END) AS a
WITH a, size([x IN actions WHERE x.status = 'succeeded']) AS succeeded,
     size([x IN actions WHERE x.status = 'failed']) AS failed
WHERE a IS NOT NULL
RETURN a.qualified_name AS tool, a.status AS status, a.mode AS mode,
       left(a.result, 200) AS result, a.completed_at AS at, succeeded, failed
