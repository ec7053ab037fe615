// Starts an investigation of the agent: (Agent)-[:INVESTIGATES]->(Investigation), status
// running, no step taken yet (iteration 0).
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $investigation (map: id (string), question (string),
//         iteration_cap (int), started_by (string), sources (list of strings: source names)).
// Returns: investigation (map of properties). No row if the agent does not exist.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (a:Agent {id: $agent_id})
CREATE (i:Investigation {id: $investigation.id, agent_id: $agent_id})
SET i.question = $investigation.question,
    i.status = 'running',
    i.iteration = 0,
    i.iteration_cap = $investigation.iteration_cap,
    i.started_by = $investigation.started_by,
    i.sources = $investigation.sources,
    i.started_at = datetime($now)
CREATE (a)-[:INVESTIGATES]->(i)
RETURN properties(i) AS investigation
