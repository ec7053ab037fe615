// Test probe: the rules a turn's decision and its episode both USED.
// Params: $agent_id (string), $decision_id (string), $episode_id (string).
// Returns: id (string), one row per rule.
MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})-[:USED]->(r:Rule)
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})-[:USED]->(r)
RETURN r.id AS id
