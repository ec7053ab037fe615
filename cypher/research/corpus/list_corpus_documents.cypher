// A page of an agent's corpus documents, the latest loaded first.
// Params: $agent_id (string), $skip (int), $limit (int).
// Returns: documents (list of maps: document_id, name, title, origin, published (date or null),
//          loaded_at (datetime), checksum, passages (int)), count (int: all documents).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (d:CorpusDocument {agent_id: agent.id})
  WITH d ORDER BY d.loaded_at DESC, d.document_id
  RETURN collect(d {.document_id, .name, .title, .origin, .published, .loaded_at, .checksum,
                    .passages}) AS documents
}
RETURN documents[$skip..$skip + $limit] AS documents, size(documents) AS count
