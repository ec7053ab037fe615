// The agents of a name, oldest first, and whether each finished building the demo: its last
// step closes the sign-off session, so an agent whose build stopped half-way has it open or
// missing (app/demo/runner.py).
// Params: $agent_name (string), $final_session (string: the sign-off session's key).
// Returns: id (string), complete (boolean). No rows: no agent of that name.
MATCH (a:Agent)
WHERE a.name = $agent_name
OPTIONAL MATCH (s:Session {agent_id: a.id, key: $final_session})
RETURN a.id AS id, coalesce(s.closed_at IS NOT NULL, false) AS complete
ORDER BY a.created_at, a.id
