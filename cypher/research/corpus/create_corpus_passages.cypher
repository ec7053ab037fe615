// Writes the passages of corpus documents (each linked from its document by HAS_PASSAGE), each
// with the words the corpus search's BM25 scores it by (title and text, app/text/lexical.py
// scored_words): its counted tokens and its length in tokens.
// Params: $agent_id (string),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id),
//         $passages (list of maps: id, document_id (strings), ordinal (int), text (string),
//                    lexical_terms (list of strings), token_count (int), embedding (list of
//                    floats or null)); the title is the document's.
// Returns: created (int).
UNWIND $passages AS passage
MATCH (d:CorpusDocument {agent_id: $agent_id, document_id: passage.document_id})
CREATE (d)-[:HAS_PASSAGE]->(p:CorpusPassage {
  id: passage.id, agent_id: $agent_id, document_id: passage.document_id,
  ordinal: passage.ordinal, title: d.title, text: passage.text,
  lexical_terms: passage.lexical_terms, token_count: passage.token_count,
  embedding: passage.embedding,
  embedding_model: CASE WHEN passage.embedding IS NULL THEN null ELSE $embedding_model END
})
RETURN count(p) AS created
