// One episode with its session, the people in it and the beliefs it is about.
// Params: $agent_id (string), $id (string).
// Returns: episode (map without the embedding), people (list of maps), about (list of maps).
MATCH (e:Episode {id: $id, agent_id: $agent_id})
OPTIONAL MATCH (e)-[:WITH]->(p:Person)
WITH e, collect(DISTINCT p {.id, .name, .role}) AS people
OPTIONAL MATCH (e)-[:ABOUT]->(b:Belief)
RETURN e {.*, embedding: null, has_embedding: e.embedding IS NOT NULL} AS episode, people,
       collect(DISTINCT b {.id, .statement, .strength, .tension}) AS about
