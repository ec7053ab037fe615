// The agent's Rules written without a vector yet (marked embedding_pending on write).
// Params: $agent_id (string), $limit (int).
// Returns: id (string), text (string).
MATCH (n:Rule {agent_id: $agent_id, embedding_pending: true})
RETURN n.id AS id, n.content AS text
LIMIT $limit
