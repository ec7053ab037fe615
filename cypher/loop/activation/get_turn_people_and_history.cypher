// What a turn reads of who is there and what came before, in one round trip: every person of
// the agent (the message's mentions are found among their names, and the people present are
// the speaker and the known people it names) and the session's latest turns.
// Params: $agent_id (string), $session (string or null: no history), $limit (int: turns).
// Returns: people (list of {id, name, name_key, role, authority, relationship_value,
//          affect_valence, affect_stress}), history (list of {speaker, message, response,
//          occurred_at}, newest first). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  RETURN collect(p {.id, .name, .name_key, .role, .authority, .relationship_value,
                    .affect_valence, .affect_stress}) AS people
}
CALL (agent) {
  OPTIONAL MATCH (:Session {agent_id: agent.id, key: $session})<-[:IN_SESSION]-(e:Episode)
  WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
  LIMIT $limit
  RETURN collect(CASE WHEN e IS NOT NULL THEN {speaker: e.speaker,
                      message: coalesce(e.user_message, e.text), response: e.response,
                      occurred_at: e.occurred_at} END) AS history
}
RETURN people, history
