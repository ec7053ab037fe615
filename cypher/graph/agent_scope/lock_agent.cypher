// Takes the agent's write lock for the rest of the transaction (every agent-scoped write does this
// first, so concurrent writers to one mind serialise and no update is lost), then reads whether the
// agent still takes writes. The lock is the agent's :AgentLock node, created on first use, never the
// Agent node: writers also update the Agent node later in the transaction, and locking it first let
// them deadlock (V0022). The Agent is matched again after the lock is held, so a deletion that
// committed while this transaction waited for the lock (agents/store/lock_agent_for_deletion marks
// it) is seen: an agent being deleted takes no more writes.
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist or is being deleted.
MATCH (:Agent {id: $agent_id})
MERGE (l:AgentLock {of_agent: $agent_id})
SET l.write_count = coalesce(l.write_count, 0) + 1
WITH l
MATCH (a:Agent {id: $agent_id})
WHERE a.deleting IS NULL
RETURN a.id AS agent_id
