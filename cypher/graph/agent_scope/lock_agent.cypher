// Takes the agent's write lock for the rest of the transaction (every agent-scoped write does this
// first, so concurrent writers to one mind serialise and no update is lost). The lock is the
// agent's :AgentLock node, created on first use, never the Agent node: writers also update the
// Agent node later in the transaction, and locking it first let them deadlock (V0022). Run
// graph/agent_scope/check_agent_writable next: it reads the Agent once the lock is held.
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist.
MATCH (a:Agent {id: $agent_id})
MERGE (l:AgentLock {of_agent: $agent_id})
SET l.write_count = coalesce(l.write_count, 0) + 1
RETURN a.id AS agent_id
