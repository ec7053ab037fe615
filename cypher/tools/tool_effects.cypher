// Whether a call of one tool may be sent again when its outcome is unknown (the server timed out
// or broke mid-call): not when the tool may destroy and is not idempotent (its MCP annotations).
// Params: $agent_id (string), $qualified_name (string: connection.tool).
// Returns: destructive (boolean), idempotent (boolean). No row for a tool the agent lacks.
MATCH (t:Tool {agent_id: $agent_id, qualified_name: $qualified_name})
RETURN coalesce(t.destructive, true) AS destructive, coalesce(t.idempotent, false) AS idempotent
