// Links episodes to their speakers (WITH {role: 'speaker'}), as memory/episodes/create_episodes
// does (the V0035 test).
// Params: $agent_id (string), $links (list of {episode_id, person_id}).
// Returns: linked (int).
UNWIND $links AS link
MATCH (e:Episode {agent_id: $agent_id, id: link.episode_id})
MATCH (p:Person {agent_id: $agent_id, id: link.person_id})
CREATE (e)-[:WITH {role: 'speaker'}]->(p)
RETURN count(*) AS linked
