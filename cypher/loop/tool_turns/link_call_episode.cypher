// A tool call's episode, written after the answer, joined to the call's records: the decision and
// the Action point at it, and the approval when the call waits for a person (the episode itself is
// completed by loop/episode_rows/complete_turn_episode).
// Params: $agent_id (string), $episode_id (string), $decision_id (string), $action_id (string),
//         $approval_id (string or null).
// Returns: episode_id (string). No row when the episode is missing.
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
CALL (e) {
  MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
  MERGE (d)-[:IN_TURN]->(e)
}
CALL (e) {
  MATCH (a:Action {agent_id: $agent_id, id: $action_id})
  MERGE (a)-[:IN_EPISODE]->(e)
}
CALL (e) {
  MATCH (p:Approval {agent_id: $agent_id, id: $approval_id})
  MERGE (p)-[:RAISED_IN]->(e)
}
RETURN e.id AS episode_id
