// Takes the agent's write lock for a deletion batch and marks it as being deleted: from the
// first batch on, lock_agent refuses every other write, so the batches never race new nodes.
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist.
MATCH (a:Agent {id: $agent_id})
SET a.deleting = true, a.write_count = coalesce(a.write_count, 0) + 1
RETURN a.id AS agent_id
