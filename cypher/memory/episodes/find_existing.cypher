// The episodes an import already holds, by external id (import is idempotent on it).
// Params: $agent_id (string), $external_ids (list of strings).
// Returns: external_id (string), id (string).
UNWIND $external_ids AS external_id
MATCH (e:Episode {agent_id: $agent_id, external_id: external_id})
RETURN external_id, e.id AS id
