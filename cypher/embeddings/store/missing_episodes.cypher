// Episodes without a vector, or with one of an older embedding scheme, of one agent at a time (the
// agent given, or the first found), for `credence embed backfill`: the batch is stored in one
// transaction, under that agent's lock. The text is what app/memory/session_order.py embeds: the
// previous episode of the session (by NEXT), a newline, then the episode's search text.
// Params: $agent_id (string or null: any agent), $refused (list of strings: agents left out, their
//         vectors refused: being deleted), $limit (int), $scheme (int: the current scheme).
// Returns: id (string), agent_id (string), text (string).
MATCH (first:Episode)
WHERE (first.embedding IS NULL OR coalesce(first.embedding_scheme, 1) < $scheme)
  AND ($agent_id IS NULL OR first.agent_id = $agent_id)
  AND NOT first.agent_id IN $refused
WITH first.agent_id AS agent_id LIMIT 1
MATCH (n:Episode {agent_id: agent_id})
WHERE n.embedding IS NULL OR coalesce(n.embedding_scheme, 1) < $scheme
WITH n LIMIT $limit
OPTIONAL MATCH (previous:Episode)-[:NEXT]->(n)
WITH n, coalesce(n.search_text, n.text, n.user_message, '') AS own, previous
RETURN n.id AS id, n.agent_id AS agent_id,
       CASE WHEN previous IS NULL THEN own
            ELSE coalesce(previous.search_text, previous.text, '') + '\n' + own END AS text
