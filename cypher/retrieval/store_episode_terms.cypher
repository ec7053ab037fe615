// Stores the words episodes are scored by (app/retrieval/stored_terms.py): their counted tokens, in
// order, and the number of every token. Only an episode that has none yet gets them, so a run
// again (a retry) changes nothing.
// Params: $agent_id (string), $documents (list of maps: id (string), lexical_terms (list of
//         strings), token_count (int)).
// Returns: stored (int).
UNWIND $documents AS row
MATCH (e:Episode {agent_id: $agent_id, id: row.id})
WHERE e.lexical_terms IS NULL
SET e.lexical_terms = row.lexical_terms, e.token_count = row.token_count
RETURN count(e) AS stored
