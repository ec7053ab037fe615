// Records what became of a decision that waited for a person (approved and executed, rejected).
// Params: $agent_id (string), $decision_id (string), $outcome (string), $execution_status
//         (string or null), $executor (string or null).
// Returns: id (string). No row if unknown.
MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
SET d.outcome = $outcome, d.execution_status = $execution_status, d.executor = $executor,
    d.resolved_at = datetime()
RETURN d.id AS id
