// Beliefs without a vector (all agents, or one), for `credence embed backfill`.
// Params: $agent_id (string or null), $limit (int).
// Returns: id (string), text (string).
MATCH (n:Belief)
WHERE n.embedding IS NULL AND ($agent_id IS NULL OR n.agent_id = $agent_id)
RETURN n.id AS id, n.statement AS text
LIMIT $limit
