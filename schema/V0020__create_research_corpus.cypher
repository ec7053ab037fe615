// The research corpus (issue 16): documents a user loads for an agent's investigations to
// search, each split into passages. Every node carries agent_id, and every query filters on it.
//   (:CorpusDocument {id, agent_id, document_id, name, title, origin, published, loaded_at,
//                     checksum, passages})-[:HAS_PASSAGE]->
//   (:CorpusPassage {id, agent_id, document_id, ordinal, title, text, embedding})
// `id` is derived from (agent_id, document_id) and from (document, ordinal, text), so a passage
// keeps its id while its text does not change. Passages are searched like episodes: a vector
// index and a fulltext index, both scoped to the agent inside the index search. A passage
// carries its document's title (indexed with its text, and embedded with it: a sentence of a
// Wikipedia page rarely names the page). Schema only.
CREATE CONSTRAINT corpus_document_id_unique IF NOT EXISTS
FOR (n:CorpusDocument) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT corpus_passage_id_unique IF NOT EXISTS
FOR (n:CorpusPassage) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT corpus_document_agent_key_unique IF NOT EXISTS
FOR (n:CorpusDocument) REQUIRE (n.agent_id, n.document_id) IS UNIQUE;
CREATE INDEX corpus_document_agent_id IF NOT EXISTS FOR (n:CorpusDocument) ON (n.agent_id);
CREATE INDEX corpus_passage_agent_id IF NOT EXISTS FOR (n:CorpusPassage) ON (n.agent_id);
CREATE INDEX corpus_document_agent_loaded_at IF NOT EXISTS
FOR (n:CorpusDocument) ON (n.agent_id, n.loaded_at);
CREATE FULLTEXT INDEX corpus_passage_text_fulltext IF NOT EXISTS
FOR (n:CorpusPassage) ON EACH [n.text, n.title, n.agent_id];
CYPHER 25
CREATE VECTOR INDEX corpus_passage_embedding IF NOT EXISTS
FOR (n:CorpusPassage) ON n.embedding WITH [n.agent_id]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
