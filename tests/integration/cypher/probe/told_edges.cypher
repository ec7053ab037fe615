// The TOLD edges to an agent's people (the merger tests).
// Params: $agent_id (string).
// Returns: person_id (string), episode_id (string), one row per edge, ordered.
MATCH (:Revision {agent_id: $agent_id})-[t:TOLD]->(p:Person {agent_id: $agent_id})
RETURN p.id AS person_id, t.episode_id AS episode_id
ORDER BY person_id, episode_id
