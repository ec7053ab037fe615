// Completes a chat turn's episode (created by memory/episodes/create_episodes in the same transaction):
// the response, how the turn ran, and the frame it ran in; the turn's session (if any) records
// when it was last active (an idle session is closed after a timeout).
// Params: $agent_id (string), $episode_id (string), $turn (map: response (string),
//         supervision_mode (string), dissatisfaction (float), revision_triggered (boolean),
//         frame (string), decision_id (string or null), model_calls (int), input_tokens (int),
//         output_tokens (int), reasoners (list of strings: judgement: reasoner)).
// Returns: id (string).
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
SET e.response = $turn.response,
    e.supervision_mode = $turn.supervision_mode,
    e.dissatisfaction = $turn.dissatisfaction,
    e.revision_triggered = $turn.revision_triggered,
    e.model_calls = $turn.model_calls,
    e.input_tokens = $turn.input_tokens,
    e.output_tokens = $turn.output_tokens,
    e.reasoners = $turn.reasoners,
    e.kind = 'turn'
WITH e
CALL (e) {
  MATCH (f:Frame {agent_id: $agent_id, key: $turn.frame})
  MERGE (e)-[:IN_FRAME]->(f)
}
CALL (e) {
  MATCH (d:Decision {agent_id: $agent_id, id: $turn.decision_id})
  MERGE (d)-[:IN_TURN]->(e)
}
CALL (e) {
  MATCH (e)-[:IN_SESSION]->(s:Session)
  SET s.last_active = e.occurred_at
}
RETURN e.id AS id
