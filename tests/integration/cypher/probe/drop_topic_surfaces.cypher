// Test setup: topic MENTIONS edges as code before word forms were kept wrote them (no surface).
// Params: $agent_id (string).
// Returns: dropped (int).
MATCH (:Episode {agent_id: $agent_id})-[m:MENTIONS]->(:Subject {kind: 'topic'})
REMOVE m.surface
RETURN count(m) AS dropped
