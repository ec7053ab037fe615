// Deletes one of an agent's corpus documents and its passages.
// Params: $agent_id (string), $document_id (string).
// Returns: document_id (string), removed_passages (int). No row when the agent has no such
//          document.
MATCH (d:CorpusDocument {agent_id: $agent_id, document_id: $document_id})
CALL (d) {
  OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:CorpusPassage {agent_id: $agent_id})
  DETACH DELETE p
  RETURN count(p) AS removed_passages
}
WITH d, d.document_id AS document_id, removed_passages
DETACH DELETE d
RETURN document_id, removed_passages
