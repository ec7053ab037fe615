// Records what became of a decision that waited for a person (approved and executed, rejected),
// and the confidence that outcome gives it (seed 002's finalize; app/loop/decisions.py). A unit
// the person modified becomes the decision's: its description, work unit and verb say what ran,
// and the proposal's are kept as proposed_description and proposed_work_unit.
// Params: $agent_id (string), $decision_id (string), $outcome (string), $confidence (float or
//         null: null keeps it), $execution_status (string or null), $executor (string or null),
//         $ran (map or null: the modified unit that ran, description (string), work_unit (JSON
//         string), verb (string); null: the proposed unit ran, or none did).
// Returns: id (string). No row if unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
SET d.outcome = $outcome, d.confidence = coalesce($confidence, d.confidence),
    d.execution_status = $execution_status, d.executor = $executor,
    d.resolved_at = datetime($now)
WITH d
CALL (d) {
  WITH d WHERE $ran IS NOT NULL
  SET d.proposed_description = coalesce(d.proposed_description, d.description),
      d.proposed_work_unit = coalesce(d.proposed_work_unit, d.work_unit),
      d.description = $ran.description, d.work_unit = $ran.work_unit, d.verb = $ran.verb
}
RETURN d.id AS id
