// Probe: an agent's lexical statistics.
// Params: $agent_id (string).
// Returns: docs, length (int or null), df (map term -> int).
OPTIONAL MATCH (c:LexicalCorpus {id: $agent_id})
CALL () {
  OPTIONAL MATCH (t:LexicalTerm {agent_id: $agent_id})
  RETURN collect([t.term, t.df]) AS pairs
}
RETURN c.docs AS docs, c.length AS length, pairs
