// The stored episodes of some sessions that new episodes are merged among: those from the
// earliest new episode's time on, and the one just before them (the new first one's
// predecessor), for app/memory/session_order.py. A turn appended to a long session reads one or
// two episodes, not the whole session (index episode_agent_session_time, schema/V0019).
// Params: $agent_id (string), $sessions (list of maps: key (string), since (datetime)).
// Returns: id (string), session (string), occurred_at (datetime), seq (int), search_text (string).
UNWIND $sessions AS s
CALL (s) {
  MATCH (e:Episode {agent_id: $agent_id, session_key: s.key})
  WHERE e.occurred_at >= s.since
  RETURN e
  UNION ALL
  MATCH (e:Episode {agent_id: $agent_id, session_key: s.key})
  WHERE e.occurred_at < s.since
  WITH e ORDER BY e.occurred_at DESC, e.seq DESC LIMIT 1
  RETURN e
}
RETURN e.id AS id, s.key AS session, e.occurred_at AS occurred_at, coalesce(e.seq, 0) AS seq,
       coalesce(e.search_text, e.text, '') AS search_text
