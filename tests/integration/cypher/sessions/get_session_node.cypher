// Test probe: a session's stored close.
// Params: $agent_id (string), $key (string).
// Returns: summary, lessons, learned, close_trigger, closed (boolean), last_active (boolean).
MATCH (s:Session {agent_id: $agent_id, key: $key})
RETURN s.summary AS summary, s.lessons AS lessons, s.learned AS learned,
       s.close_trigger AS close_trigger, s.closed_at IS NOT NULL AS closed,
       s.last_active IS NOT NULL AS last_active
