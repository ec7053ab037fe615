// The agent's Rules written without a vector yet (marked embedding_pending on write).
// Params: $agent_id (string), $limit (int).
// Returns: id (string), text (string): what the rule's writer embeds: "<trigger>: <content>",
//          a pack's rule its content (app/memory/rules.py, app/packs/loader.py).
MATCH (n:Rule {agent_id: $agent_id, embedding_pending: true})
RETURN n.id AS id,
       CASE WHEN n.pack_name IS NULL THEN n.trigger_concept + ': ' + n.content ELSE n.content END AS text
LIMIT $limit
