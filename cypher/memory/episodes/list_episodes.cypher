// An agent's episodes, newest first, optionally of one session or one speaker (any case, as
// people are found by name: the speaker_key the episodes store).
// Params: $agent_id (string), $session (string or null), $speaker (string or null),
//         $skip (int), $limit (int).
// Returns: episode (map without the embedding), session (string or null).
MATCH (e:Episode {agent_id: $agent_id})
WHERE ($session IS NULL OR e.session_key = $session)
  AND ($speaker IS NULL OR e.speaker_key = toLower(trim($speaker)))
WITH e
ORDER BY e.occurred_at DESC, e.created_at DESC
SKIP $skip
LIMIT $limit
RETURN e {.*, embedding: null, has_embedding: e.embedding IS NOT NULL} AS episode
