// Records a step the supervisor took, chained after the previous one (FIRST_STEP from the
// investigation for ordinal 0, NEXT_STEP otherwise), and counts it as an iteration.
// Params: $agent_id (string), $investigation_id (string), $step (map: id, ordinal (int), kind
//         (supervisor/search/judge/resolve/synthesize), started_at (datetime), duration_ms
//         (float), model_calls (int), input_tokens (int), output_tokens (int), reasoners (list
//         of strings), summary (string), details (JSON string)).
// Returns: step (map of properties).
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
CREATE (s:ResearchStep {id: $step.id, agent_id: $agent_id, investigation_id: $investigation_id})
SET s.ordinal = $step.ordinal,
    s.kind = $step.kind,
    s.started_at = $step.started_at,
    s.duration_ms = $step.duration_ms,
    s.model_calls = $step.model_calls,
    s.input_tokens = $step.input_tokens,
    s.output_tokens = $step.output_tokens,
    s.reasoners = $step.reasoners,
    s.summary = $step.summary,
    s.details = $step.details,
    i.iteration = $step.ordinal + 1
WITH i, s
CALL (i, s) {
  MATCH (previous:ResearchStep {investigation_id: $investigation_id, ordinal: $step.ordinal - 1})
  CREATE (previous)-[:NEXT_STEP]->(s)
}
CALL (i, s) {
  WITH i, s WHERE $step.ordinal = 0
  CREATE (i)-[:FIRST_STEP]->(s)
}
RETURN properties(s) AS step
