// Takes the agent's write lock (its :AgentLock node, as graph/agent_scope/lock_agent) for a deletion batch
// and marks the agent as being deleted: from the first batch on, lock_agent refuses every other
// write, so the batches never race new nodes.
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist.
MATCH (a:Agent {id: $agent_id})
MERGE (l:AgentLock {of_agent: $agent_id})
SET l.write_count = coalesce(l.write_count, 0) + 1
WITH a
SET a.deleting = true
RETURN a.id AS agent_id
