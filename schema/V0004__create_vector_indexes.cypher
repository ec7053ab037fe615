// Vector indexes (384 dimensions: all-MiniLM-L6-v2; cosine). agent_id is an additional filter
// property (WITH [...]), so the Cypher 25 SEARCH clause scopes a search to one agent inside the
// index instead of post-filtering a global top-k.
CYPHER 25
CREATE VECTOR INDEX belief_embedding IF NOT EXISTS
FOR (n:Belief) ON n.embedding WITH [n.agent_id]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CYPHER 25
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS
FOR (n:Episode) ON n.embedding WITH [n.agent_id]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CYPHER 25
CREATE VECTOR INDEX rule_embedding IF NOT EXISTS
FOR (n:Rule) ON n.embedding WITH [n.agent_id]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
