// The conflicts between sources an investigation recorded, in the order they were found.
// Params: $agent_id (string), $investigation_id (string).
// Returns: conflict (map of properties), source_ids (list of two strings), decisive_evidence_id
//          (string or null).
MATCH (:Investigation {agent_id: $agent_id, id: $investigation_id})-[:HAS_CONFLICT]->(c:Conflict)
OPTIONAL MATCH (c)-[:DECIDED_BY]->(e:ResearchEvidence)
RETURN properties(c) AS conflict, [c.first_source_id, c.second_source_id] AS source_ids,
       e.id AS decisive_evidence_id
ORDER BY c.detected_at, c.id
