// Probe: removes the stored words and token counts of an agent's corpus passages, as passages
// loaded before they were stored have none.
// Params: $agent_id (string).
// Returns: forgotten (int).
MATCH (p:CorpusPassage {agent_id: $agent_id})
REMOVE p.token_count, p.lexical_terms
RETURN count(p) AS forgotten
