// Completes a chat turn's episode (created by episodes/create_episodes in the same transaction):
// the response, how the turn ran, and the frame it ran in.
// Params: $agent_id (string), $episode_id (string), $turn (map: response (string),
//         supervision_mode (string), dissatisfaction (float), revision_triggered (boolean),
//         frame (string), approval_id (string or null), decision_id (string or null)).
// Returns: id (string).
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
SET e.response = $turn.response,
    e.supervision_mode = $turn.supervision_mode,
    e.dissatisfaction = $turn.dissatisfaction,
    e.revision_triggered = $turn.revision_triggered,
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
RETURN e.id AS id
