// The session's latest turns (newest first; the caller reverses them), for the reasoner's
// conversation history: what the person said and what the agent answered.
// Params: $agent_id (string), $session (string: the session key), $limit (int).
// Returns: speaker (string or null), message (string), response (string or null),
//          occurred_at (datetime). No rows for an unknown session.
MATCH (s:Session {agent_id: $agent_id, key: $session})<-[:IN_SESSION]-(e:Episode)
WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
LIMIT $limit
RETURN e.speaker AS speaker, coalesce(e.user_message, e.text) AS message,
       e.response AS response, e.occurred_at AS occurred_at
