// Writes the passages of corpus documents (each linked from its document by HAS_PASSAGE), each
// with its length in tokens (title and text, app/text/lexical.py: what the corpus search's BM25
// averages).
// Params: $agent_id (string),
//         $passages (list of maps: id, document_id (strings), ordinal (int), text (string),
//                    token_count (int), embedding (list of floats or null)); the title is the
//                    document's.
// Returns: created (int).
UNWIND $passages AS passage
MATCH (d:CorpusDocument {agent_id: $agent_id, document_id: passage.document_id})
CREATE (d)-[:HAS_PASSAGE]->(p:CorpusPassage {
  id: passage.id, agent_id: $agent_id, document_id: passage.document_id,
  ordinal: passage.ordinal, title: d.title, text: passage.text,
  token_count: passage.token_count, embedding: passage.embedding
})
RETURN count(p) AS created
