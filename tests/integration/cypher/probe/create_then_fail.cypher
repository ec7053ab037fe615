// Probe: writes a node, then fails (division by zero) in the same transaction.
// Params: $agent_id (string). Returns: never.
CREATE (b:Belief {id: randomUUID(), agent_id: $agent_id, statement: 'half-way'})
WITH b
UNWIND [1, 0] AS divisor
RETURN 1 / divisor AS boom
