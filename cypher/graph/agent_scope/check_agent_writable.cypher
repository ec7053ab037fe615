// Whether the agent takes writes, read after graph/agent_scope/lock_agent (so a deletion that committed
// while this transaction waited for the lock is seen): an agent being deleted takes no more.
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist or is being deleted.
MATCH (a:Agent {id: $agent_id})
WHERE a.deleting IS NULL
RETURN a.id AS agent_id
