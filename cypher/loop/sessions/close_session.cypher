// Records a session's close: its summary, lessons and "learned:" items (seed 002/003), when and
// why it closed (explicit / idle_timeout / end_of_turn). Closing again rewrites them.
// Params: $agent_id (string), $key (string), $close (map: summary (string), lessons (list of
//         strings), learned (list of strings), trigger (string), at (datetime)).
// Returns: key (string). No row for an unknown session.
MATCH (s:Session {agent_id: $agent_id, key: $key})
SET s.summary = $close.summary,
    s.lessons = $close.lessons,
    s.learned = $close.learned,
    s.close_trigger = $close.trigger,
    s.closed_at = $close.at
RETURN s.key AS key
