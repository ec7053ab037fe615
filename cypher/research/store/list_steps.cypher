// The steps an investigation took, in order (the NEXT_STEP chain), from an ordinal on.
// Params: $agent_id (string), $investigation_id (string), $from_ordinal (int).
// Returns: step (map of properties).
MATCH (s:ResearchStep {agent_id: $agent_id, investigation_id: $investigation_id})
WHERE s.ordinal >= $from_ordinal
RETURN properties(s) AS step
ORDER BY s.ordinal
