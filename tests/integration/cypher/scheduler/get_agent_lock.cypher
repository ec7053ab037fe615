// Test probe: how many writes have taken an agent's lock (graph/agent_scope/lock_agent counts them).
// Params: $agent_id (string).
// Returns: write_count (int; 0 when no write took it yet).
OPTIONAL MATCH (l:AgentLock {of_agent: $agent_id})
RETURN coalesce(l.write_count, 0) AS write_count
