// Writes the status and confidence each hypothesis has after a step (derived from its evidence
// and conflicts in Python: app/research/assessment.py).
// Params: $agent_id (string), $investigation_id (string), $hypotheses (list of maps: id,
//         status (proposed/validating/confirmed/refuted/undecided), confidence (float)).
// Returns: updated (int).
UNWIND $hypotheses AS hypothesis
MATCH (h:Hypothesis {id: hypothesis.id, investigation_id: $investigation_id, agent_id: $agent_id})
SET h.status = hypothesis.status,
    h.confidence = hypothesis.confidence
RETURN count(h) AS updated
