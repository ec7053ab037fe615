// The agent's Beliefs written without a vector yet (marked embedding_pending on write).
// Params: $agent_id (string), $limit (int).
// Returns: id (string), text (string).
MATCH (n:Belief {agent_id: $agent_id, embedding_pending: true})
RETURN n.id AS id, n.statement AS text
LIMIT $limit
