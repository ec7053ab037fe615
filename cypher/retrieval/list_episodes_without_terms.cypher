// Episodes of the agent that store no lexical terms yet (written before episodes stored them), with
// their indexed fields, a batch at a time (app/retrieval/stored_terms.py gives them their terms).
// Params: $agent_id (string), $limit (int).
// Returns: id, search_text, user_message, response (string or null).
MATCH (e:Episode {agent_id: $agent_id})
WHERE e.lexical_terms IS NULL
RETURN e.id AS id, e.search_text AS search_text, e.user_message AS user_message,
       e.response AS response
LIMIT $limit
