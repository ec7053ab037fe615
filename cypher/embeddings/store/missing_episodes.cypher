// Episodes without a vector, or with one of an older embedding scheme (all agents, or one), for
// `credence embed backfill`. The text is what app/memory/session_order.py embeds: the previous
// episode of the session (by NEXT), a newline, then the episode's search text.
// Params: $agent_id (string or null), $refused (list of strings: agents left out, their vectors
//         refused: being deleted), $limit (int), $scheme (int: the current scheme).
// Returns: id (string), agent_id (string), text (string).
MATCH (n:Episode)
WHERE (n.embedding IS NULL OR coalesce(n.embedding_scheme, 1) < $scheme)
  AND ($agent_id IS NULL OR n.agent_id = $agent_id)
  AND NOT n.agent_id IN $refused
WITH n LIMIT $limit
OPTIONAL MATCH (previous:Episode)-[:NEXT]->(n)
WITH n, coalesce(n.search_text, n.text, n.user_message, '') AS own, previous
RETURN n.id AS id, n.agent_id AS agent_id,
       CASE WHEN previous IS NULL THEN own
            ELSE coalesce(previous.search_text, previous.text, '') + '\n' + own END AS text
