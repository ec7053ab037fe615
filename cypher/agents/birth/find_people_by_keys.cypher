// Finds an agent's people who share an email (any case) or a name with those an enrichment
// at birth is about to write, so that the write updates them instead of doubling them.
// Params: $agent_id (string), $emails (list of lower-cased strings, may be empty),
//         $name_keys (list of strings: lower-cased names, whitespace collapsed).
// Returns: one row per person found, oldest first: person (map of the Person's properties).
MATCH (p:Person {agent_id: $agent_id})
WHERE p.name_key IN $name_keys OR (p.email IS NOT NULL AND toLower(p.email) IN $emails)
RETURN properties(p) AS person
ORDER BY p.created_at, p.id
