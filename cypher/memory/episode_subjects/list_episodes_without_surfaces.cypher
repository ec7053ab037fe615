// The agent's episodes with a topic MENTIONS edge that keeps no word form yet (linked before
// the forms were kept), to give their edges one (app/memory/episode_subjects.py).
// Params: $agent_id (string), $after (string: episode id to continue after; '' to start),
//         $limit (int).
// Returns: id, text, speaker, user_message, response (strings or null), in id order.
MATCH (e:Episode {agent_id: $agent_id})
  WHERE e.id > $after
    AND EXISTS { MATCH (e)-[m:MENTIONS]->(:Subject {kind: 'topic'}) WHERE m.surface IS NULL }
RETURN e.id AS id, e.text AS text, e.speaker AS speaker, e.user_message AS user_message,
       e.response AS response
ORDER BY e.id
LIMIT $limit
