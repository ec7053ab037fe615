// Every episode of one agent with its stored vector and what it embeds the parts of, for
// bench/sentence_probe.py.
// Params: $agent_id (string), $dimensions (int: of the stored vectors).
// Returns: id (string), external_id (string or null), speaker (string or null), text (string),
//          search_text (string), session (string or null), seq (int or null),
//          embedding (float32 VECTOR, null when the episode has none).
MATCH (e:Episode {agent_id: $agent_id})
RETURN e.id AS id, e.external_id AS external_id, e.speaker AS speaker, e.text AS text,
       e.search_text AS search_text, e.session_key AS session, e.seq AS seq,
       CASE WHEN e.embedding IS NULL THEN null
            ELSE vector(e.embedding, $dimensions, FLOAT32) END AS embedding
ORDER BY e.session_key, e.seq, e.id
