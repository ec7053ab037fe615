// The first statement of every step's transaction: locks the investigation and checks that it
// is still running and that no step took this ordinal, so a step is written at most once (a
// second runner, or a step prepared before a pause or cancel, writes nothing).
// Params: $agent_id (string), $investigation_id (string), $ordinal (int).
// Returns: claimed (boolean), status (string), iteration (int). No row if unknown.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
SET i.write_count = coalesce(i.write_count, 0) + 1
RETURN i.status = 'running' AND i.iteration = $ordinal AS claimed, i.status AS status,
       i.iteration AS iteration
