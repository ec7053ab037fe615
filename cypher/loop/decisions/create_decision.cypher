// A deliberation record (docs/graph-model.md §2): the decision a turn took about a work unit, its reasons
// (at least one), and the beliefs it used.
// Params: $agent_id (string), $decision (map: id, description (string), confidence (float),
//         stakes (string), mode (string), work_unit (JSON string), verb (string),
//         execution_status (string or null), outcome (string: success/failure/neutral/pending/
//         rejected), final_confidence (float or null: what the outcome makes the confidence,
//         app/loop/decisions.py), executor (string or null)),
//         $reasons (list of maps: text (string), weight (float)), $used (list of belief ids).
// Returns: id (string), reasons (int), used (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CREATE (d:Decision {id: $decision.id, agent_id: $agent_id})
SET d.description = $decision.description,
    d.proposed_confidence = $decision.confidence,
    d.confidence = coalesce($decision.final_confidence, $decision.confidence),
    d.stakes = $decision.stakes,
    d.mode = $decision.mode,
    d.work_unit = $decision.work_unit,
    d.verb = $decision.verb,
    d.execution_status = $decision.execution_status,
    d.outcome = $decision.outcome,
    d.executor = $decision.executor,
    d.created_at = datetime($now)
WITH d
CALL (d) {
  UNWIND $reasons AS reason
  CREATE (r:Reason {id: randomUUID(), agent_id: $agent_id, text: reason.text,
                    weight: reason.weight})
  CREATE (d)-[:BECAUSE]->(r)
  RETURN count(r) AS reasons
}
CALL (d) {
  UNWIND $used AS belief_id
  MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
  MERGE (d)-[:USED]->(b)
  RETURN count(b) AS used
}
RETURN d.id AS id, reasons, used
