// Rules without a vector (all agents, or one), for `credence embed backfill`.
// Params: $agent_id (string or null), $limit (int).
// Returns: id (string), text (string).
MATCH (n:Rule)
WHERE n.embedding IS NULL AND ($agent_id IS NULL OR n.agent_id = $agent_id)
RETURN n.id AS id, n.content AS text
LIMIT $limit
