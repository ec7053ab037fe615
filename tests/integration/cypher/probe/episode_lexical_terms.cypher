// Probe: an agent's episodes with their indexed fields and the words they are scored by.
// Params: $agent_id (string).
// Returns: id, external_id, search_text, user_message, response (string or null), lexical_terms (list of
//          strings or null), token_count (int or null).
MATCH (e:Episode {agent_id: $agent_id})
RETURN e.id AS id, e.external_id AS external_id, e.search_text AS search_text,
       e.user_message AS user_message,
       e.response AS response, e.lexical_terms AS lexical_terms, e.token_count AS token_count
ORDER BY id
