// Test only: changes a belief's stored strength behind the engine's back (no event), so the
// event log no longer explains it.
// Params: $agent_id (string), $belief_id (string), $strength (float).
// Returns: id (string).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
SET b.strength = $strength
RETURN b.id AS id
