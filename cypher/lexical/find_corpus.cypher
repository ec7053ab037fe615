// Whether the agent's lexical statistics exist (app/memory/lexical_stats.py builds them from the
// stored episodes when they do not).
// Params: $agent_id (string).
// Returns: docs (int), length (int): one row, or none when the agent has no statistics yet.
MATCH (c:LexicalCorpus {id: $agent_id})
RETURN c.docs AS docs, c.length AS length
