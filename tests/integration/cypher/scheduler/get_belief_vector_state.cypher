// Test probe: whether a belief has its vector, and whether it still waits for one.
// Params: $agent_id (string), $belief_id (string).
// Returns: embedded (boolean), pending (boolean).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
RETURN b.embedding IS NOT NULL AS embedded, coalesce(b.embedding_pending, false) AS pending
