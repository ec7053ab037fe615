// Test setup: a session made idle, its last activity moved back by $minutes (relative to what
// the turn stored, so the test does not depend on the wall clock).
// Params: $agent_id (string), $key (string), $minutes (int).
// Returns: last_active (datetime).
MATCH (s:Session {agent_id: $agent_id, key: $key})
SET s.last_active = s.last_active - duration({minutes: $minutes})
RETURN s.last_active AS last_active
