// The agent's episodes that mention no subject yet (written before subjects were linked, or
// about nothing the extractor finds), to link them once (app/memory/episode_subjects.py).
// Params: $agent_id (string), $after (string: episode id to continue after; '' to start),
//         $limit (int).
// Returns: id, text, speaker (string or null), in id order.
MATCH (e:Episode {agent_id: $agent_id})
  WHERE e.id > $after AND NOT (e)-[:MENTIONS]->(:Subject)
RETURN e.id AS id, e.text AS text, e.speaker AS speaker
ORDER BY e.id
LIMIT $limit
