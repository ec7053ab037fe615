// Probe: removes the stored token counts of an agent's corpus passages, as passages loaded before
// they were stored have none.
// Params: $agent_id (string).
// Returns: forgotten (int).
MATCH (p:CorpusPassage {agent_id: $agent_id})
REMOVE p.token_count
RETURN count(p) AS forgotten
