// Test probe: how many agents have this name (a refused birth must leave none).
// Params: $agent_name (string).
// Returns: agents (int).
MATCH (a:Agent {name: $agent_name})
RETURN count(a) AS agents
