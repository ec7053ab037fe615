// Adds a note to working memory. Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $now (datetime),
//         $note (map: id, content, priority (int), source, expires_at (datetime)).
// Returns: note (map of the Note's properties).
MATCH (agent:Agent {id: $agent_id})
CREATE (n:Note {id: $note.id, agent_id: $agent_id})
SET n.content = $note.content,
    n.priority = $note.priority,
    n.source = $note.source,
    n.created_at = $now,
    n.expires_at = $note.expires_at
RETURN properties(n) AS note
