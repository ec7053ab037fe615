// The own turns of the people a question names are searched in the episode vector index, scoped
// to the agent and the speaker (cypher/retrieval/search_episodes.cypher; before, every turn the
// person said was read and compared, a cost that grew with their turns). Every episode keeps its
// speaker in lower case (speaker_key, as names are keyed; cypher/memory/episodes/
// create_episodes.cypher writes it from now on), a range index finds an agent's turns by speaker,
// and the vector index takes speaker_key as a second filter property, so it is built again.
// Idempotent.
MATCH (e:Episode) WHERE e.speaker IS NOT NULL AND e.speaker_key IS NULL
CALL (e) {
  SET e.speaker_key = toLower(e.speaker)
} IN TRANSACTIONS OF 10000 ROWS;
CREATE INDEX episode_agent_speaker IF NOT EXISTS FOR (e:Episode) ON (e.agent_id, e.speaker_key);
DROP INDEX episode_embedding IF EXISTS;
CYPHER 25
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS
FOR (n:Episode) ON n.embedding WITH [n.agent_id, n.speaker_key]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
