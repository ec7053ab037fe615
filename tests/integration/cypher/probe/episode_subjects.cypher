// Probe: what each of an agent's episodes mentions (MENTIONS edges to :Subject nodes).
// Params: $agent_id (string).
// Returns: external_id (string), keys (sorted list of subject keys), and per subject its count.
MATCH (e:Episode {agent_id: $agent_id})
OPTIONAL MATCH (e)-[:MENTIONS]->(s:Subject)
WITH e, s ORDER BY s.key
RETURN e.external_id AS external_id, collect(s.key) AS keys,
       collect([s.key, s.episodes]) AS counts
ORDER BY external_id
