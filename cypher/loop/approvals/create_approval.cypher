// A guidance or proposal turn waits for a person: the approval holds the question, the proposed
// work unit and the turn's state (to resume it later, also after a restart), linked to the turn's
// episode (a tool call's episode is written after its answer: loop/tool_turns/link_call_episode
// links it then) and, when one decided the mode, the relevant belief.
// Params: $agent_id (string), $approval (map: id, kind (guidance/proposal), question (string),
//         work_unit (JSON string or null), belief_id (string or null), turn_state (JSON string),
//         episode_id (string), expires_at (datetime),
//         required_authority (float: the least authority of a person, other than the
//         principal, who may answer it)).
// Returns: approval (map of properties).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CREATE (a:Approval {id: $approval.id, agent_id: $agent_id})
SET a.kind = $approval.kind,
    a.status = 'pending',
    a.question = $approval.question,
    a.work_unit = $approval.work_unit,
    a.belief_id = $approval.belief_id,
    a.turn_state = $approval.turn_state,
    a.required_authority = $approval.required_authority,
    a.created_at = datetime($now),
    a.expires_at = $approval.expires_at
WITH a
CALL (a) {
  MATCH (e:Episode {agent_id: $agent_id, id: $approval.episode_id})
  CREATE (a)-[:RAISED_IN]->(e)
}
CALL (a) {
  MATCH (b:Belief {agent_id: $agent_id, id: $approval.belief_id})
  CREATE (a)-[:CONCERNS]->(b)
}
RETURN properties(a) AS approval
