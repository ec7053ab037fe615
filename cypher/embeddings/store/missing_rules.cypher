// Rules without a vector (all agents, or one), for `credence embed backfill`.
// Params: $agent_id (string or null), $refused (list of strings: agents left out, their vectors
//         refused: being deleted), $limit (int).
// Returns: id (string), agent_id (string), text (string).
MATCH (n:Rule)
WHERE n.embedding IS NULL AND ($agent_id IS NULL OR n.agent_id = $agent_id)
  AND NOT n.agent_id IN $refused
RETURN n.id AS id, n.agent_id AS agent_id, n.content AS text
LIMIT $limit
