// Creates a learned or manual censor (the caller holds the agent lock and checked for duplicates).
// Params: $agent_id (string), $censor (map: id string, key string or null, pattern string,
//         reason string, action string, source string (learned/manual), auto_created boolean,
//         session_key string or null).
// Returns: id (string).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CREATE (c:Censor {id: $censor.id, agent_id: $agent_id})
SET c.key = $censor.key, c.pattern = $censor.pattern, c.reason = $censor.reason,
    c.action = $censor.action, c.source = $censor.source, c.auto_created = $censor.auto_created,
    c.session_key = $censor.session_key, c.is_active = true, c.created_at = datetime($now)
RETURN c.id AS id
