// What closing a session summarises: its turns in order (who spoke, what was said and answered,
// the outcome, whether a belief was revised) and the beliefs learned in it.
// Params: $agent_id (string), $key (string: the session key).
// Returns: key (string), started_at (datetime), episodes (list of maps: id, speaker, text,
//          response, outcome, revision_triggered, frame, occurred_at), learned (list of
//          statements of beliefs LEARNED_FROM its episodes). No row for an unknown session.
MATCH (s:Session {agent_id: $agent_id, key: $key})
CALL (s) {
  MATCH (e:Episode)-[:IN_SESSION]->(s)
  WITH e ORDER BY e.occurred_at, e.created_at, e.id
  RETURN collect(e {.id, .speaker, .text, .response, .outcome, .revision_triggered, .frame,
                    .occurred_at}) AS episodes
}
CALL (s) {
  OPTIONAL MATCH (b:Belief {agent_id: $agent_id})-[:LEARNED_FROM]->(:Episode)-[:IN_SESSION]->(s)
  WITH DISTINCT b ORDER BY b.created_at
  RETURN collect(b.statement) AS learned
}
RETURN s.key AS key, s.started_at AS started_at, episodes, learned
