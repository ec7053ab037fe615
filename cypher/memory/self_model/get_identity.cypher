// Reads the agent's identity fields that self-model writes check (inside their transaction).
// Params: $agent_id (string).
// Returns: identity (map: terminal_creed, knowledge_gaps). No row for an unknown agent.
MATCH (a:Agent {id: $agent_id})
RETURN a {.terminal_creed, .knowledge_gaps} AS identity
