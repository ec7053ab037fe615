// The keys of an agent's sessions.
// Params: $agent_id (string).
// Returns: key (string), one row per session.
MATCH (s:Session {agent_id: $agent_id})
RETURN s.key AS key
