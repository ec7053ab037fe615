// Test probe: how many censors of a pack an agent has.
// Params: $agent_id (string), $pack_name (string).
// Returns: censors (int).
MATCH (c:Censor {agent_id: $agent_id, pack_name: $pack_name})
RETURN count(c) AS censors
