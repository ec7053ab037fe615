// Probe: the word forms an agent's topic MENTIONS edges keep.
// Params: $agent_id (string).
// Returns: key (string: the subject's key), surface (string or null), one row per edge.
MATCH (:Episode {agent_id: $agent_id})-[m:MENTIONS]->(s:Subject {kind: 'topic'})
RETURN s.key AS key, m.surface AS surface
ORDER BY key, surface
