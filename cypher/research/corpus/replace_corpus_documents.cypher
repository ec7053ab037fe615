// Creates or replaces an agent's corpus documents: a document whose checksum changed loses
// its passages (create_corpus_passages writes the new ones in the same transaction) and takes
// the new properties; one with the same checksum is left as it is.
// Params: $agent_id (string), $now (datetime),
//         $documents (list of maps: id, document_id, name, title, origin (strings),
//                     published (date or null), checksum (string), passages (int)).
// Returns: document_id (string), replaced (boolean: it existed with other content),
//          removed_passages (int). Unchanged documents have no row.
UNWIND $documents AS doc
MERGE (d:CorpusDocument {agent_id: $agent_id, document_id: doc.document_id})
  ON CREATE SET d.id = doc.id
WITH d, doc, d.checksum IS NOT NULL AS existed
WHERE d.checksum IS NULL OR d.checksum <> doc.checksum
CALL (d) {
  OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:CorpusPassage {agent_id: $agent_id})
  DETACH DELETE p
  RETURN count(p) AS removed_passages
}
SET d.name = doc.name, d.title = doc.title, d.origin = doc.origin,
    d.published = doc.published, d.checksum = doc.checksum, d.passages = doc.passages,
    d.loaded_at = $now
RETURN d.document_id AS document_id, existed AS replaced, removed_passages
