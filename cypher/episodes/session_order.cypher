// The stored episodes of some sessions with their place in the session's order, for merging new
// episodes into it (app/memory/session_order.py).
// Params: $agent_id (string), $sessions (list of session keys).
// Returns: id (string), session (string), occurred_at (datetime), seq (int), search_text (string).
UNWIND $sessions AS key
MATCH (e:Episode {agent_id: $agent_id, session_key: key})
RETURN e.id AS id, key AS session, e.occurred_at AS occurred_at, coalesce(e.seq, 0) AS seq,
       coalesce(e.search_text, e.text, '') AS search_text
