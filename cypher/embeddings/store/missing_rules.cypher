// Rules without a vector, of one agent at a time (the agent given, or the first found), for
// `credence embed backfill`: the batch is stored in one transaction, under that agent's lock.
// Params: $agent_id (string or null: any agent), $refused (list of strings: agents left out, their
//         vectors refused: being deleted), $limit (int).
// Returns: id (string), agent_id (string), text (string): what the rule's writer embeds: "<trigger>: <content>",
//          a pack's rule its content (app/memory/rules.py, app/packs/loader.py).
MATCH (first:Rule)
WHERE first.embedding IS NULL AND ($agent_id IS NULL OR first.agent_id = $agent_id)
  AND NOT first.agent_id IN $refused
WITH first.agent_id AS agent_id LIMIT 1
MATCH (n:Rule {agent_id: agent_id})
WHERE n.embedding IS NULL
RETURN n.id AS id, n.agent_id AS agent_id,
       CASE WHEN n.pack_name IS NULL THEN n.trigger_concept + ': ' + n.content ELSE n.content END AS text
LIMIT $limit
