// The agent the Browser guide is about: the one of $agent_id when given, else the demo agent
// by name (the oldest one whose build finished, i.e. whose sign-off session is closed; else the
// oldest of that name). app/browser/guide.py.
// Params:
//   $agent_id :: STRING  an agent's id (null: look the demo agent up by name)
//   $agent_name :: STRING NOT NULL  the demo agent's name (app/demo DEMO_AGENT_NAME)
//   $final_session :: STRING NOT NULL  the key of the demo's last session (closed when complete)
// Returns at most one row (none: no such agent):
//   id :: STRING, name :: STRING, complete :: BOOLEAN (the demo's build finished; true for an
//   agent given by id)
MATCH (a:Agent)
WHERE ($agent_id IS NOT NULL AND a.id = $agent_id)
   OR ($agent_id IS NULL AND a.name = $agent_name)
OPTIONAL MATCH (s:Session {agent_id: a.id, key: $final_session})
WITH a, $agent_id IS NOT NULL OR coalesce(s.closed_at IS NOT NULL, false) AS complete
RETURN a.id AS id, a.name AS name, complete
ORDER BY complete DESC, a.created_at, a.id
LIMIT 1
