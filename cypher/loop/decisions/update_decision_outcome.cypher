// Records what became of a decision that waited for a person (approved and executed, rejected),
// and the confidence that outcome gives it (seed 002's finalize; app/loop/decisions.py).
// Params: $agent_id (string), $decision_id (string), $outcome (string), $confidence (float or
//         null: null keeps it), $execution_status (string or null), $executor (string or null).
// Returns: id (string). No row if unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
SET d.outcome = $outcome, d.confidence = coalesce($confidence, d.confidence),
    d.execution_status = $execution_status, d.executor = $executor,
    d.resolved_at = datetime($now)
RETURN d.id AS id
