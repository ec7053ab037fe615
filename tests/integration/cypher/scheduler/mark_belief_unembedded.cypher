// Test setup: a belief as a write that could not embed it leaves it: no vector, embedding_pending.
// Params: $agent_id (string), $belief_id (string).
// Returns: id (string).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
REMOVE b.embedding
SET b.embedding_pending = true
RETURN b.id AS id
