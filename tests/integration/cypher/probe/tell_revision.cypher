// Writes one revision of the agent told to several of its people (the merger tests).
// Params: $agent_id (string), $revision_id (string), $told (list of {person_id, episode_id, at (ISO datetime string)}).
// Returns: nothing.
CREATE (r:Revision {agent_id: $agent_id, id: $revision_id})
WITH r
UNWIND $told AS told
MATCH (p:Person {agent_id: $agent_id, id: told.person_id})
CREATE (r)-[:TOLD {episode_id: told.episode_id, at: datetime(told.at)}]->(p)
