// The checksums of an agent's corpus documents among $document_ids (what a load compares
// against, so an unchanged document is neither embedded nor written again).
// Params: $agent_id (string), $document_ids (list of strings).
// Returns: document_id (string), checksum (string). Documents not loaded have no row.
MATCH (d:CorpusDocument {agent_id: $agent_id})
WHERE d.document_id IN $document_ids
RETURN d.document_id AS document_id, d.checksum AS checksum
