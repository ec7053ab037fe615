// Probe: removes the words an agent's episodes are scored by, as if they predated them.
// Params: $agent_id (string).
// Returns: dropped (int).
MATCH (e:Episode {agent_id: $agent_id})
REMOVE e.lexical_terms, e.token_count
RETURN count(e) AS dropped
