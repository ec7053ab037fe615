// A kept scenario agent's episodes, in order, with what peak-end salience made of them.
// Params: $agent_id (string).
// Returns: session (string), at (datetime), speaker (string or null), text (string),
//          outcome (string or null), valence (float or null), is_peak (bool), one row per
//          episode, in the session's order.
MATCH (e:Episode {agent_id: $agent_id})-[:IN_SESSION]->(s:Session)
RETURN s.key AS session, e.occurred_at AS at, e.speaker AS speaker, e.text AS text,
       e.outcome AS outcome, e.emotional_valence AS valence, coalesce(e.is_peak, false) AS is_peak
ORDER BY s.key, e.occurred_at, e.created_at, e.id
