// The speaker and speaker_key of an agent's episodes (the V0031 backfill test).
// Params: $agent_id (string).
// Returns: id, speaker, speaker_key (string or null), ordered by id.
MATCH (e:Episode {agent_id: $agent_id})
RETURN e.id AS id, e.speaker AS speaker, e.speaker_key AS speaker_key
ORDER BY id
