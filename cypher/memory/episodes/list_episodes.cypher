// An agent's episodes, newest first, optionally of one session or one speaker (any case, as
// people are found by name: the speaker_key the episodes store).
// Params: $agent_id (string), $session (string or null),
//         $speaker_key (string or null: the speaker's name key, app/memory/people/names.py
//         name_key: lower case, white space collapsed),
//         $skip (int), $limit (int).
// Returns: episode (map without the embedding), session (string or null).
MATCH (e:Episode {agent_id: $agent_id})
WHERE ($session IS NULL OR e.session_key = $session)
  AND ($speaker_key IS NULL OR e.speaker_key = $speaker_key)
WITH e
ORDER BY e.occurred_at DESC, e.created_at DESC
SKIP $skip
LIMIT $limit
RETURN e {.*, embedding: null, has_embedding: e.embedding IS NOT NULL} AS episode
