// Every stance a source took on a hypothesis of the investigation.
// Params: $agent_id (string), $investigation_id (string).
// Returns: evidence (map of properties: id, hypothesis_id, source_id, stance, confidence,
//          reason, reasoner, and similarity when the offline judge recorded one).
MATCH (e:ResearchEvidence {agent_id: $agent_id, investigation_id: $investigation_id})
RETURN properties(e) AS evidence
ORDER BY e.judged_at, e.id
