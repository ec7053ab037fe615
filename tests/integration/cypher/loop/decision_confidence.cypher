// A decision's outcome and confidence, and the confidence it was proposed with.
// Params: $agent_id (string), $decision_id (string).
// Returns: outcome (string), confidence (float), proposed_confidence (float).
MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
RETURN d.outcome AS outcome, d.confidence AS confidence,
       d.proposed_confidence AS proposed_confidence
