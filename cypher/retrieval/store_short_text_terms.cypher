// Stores the words beliefs, rules or research-corpus passages are scored by
// (app/retrieval/stored_terms.py): their counted tokens, in order, and the number of every
// token. Only a document that has none yet gets them, so a run again (a retry) changes nothing.
// Params: $label (string: 'Belief', 'Rule' or 'CorpusPassage'), $agent_id (string),
//         $documents (list of maps: id (string), lexical_terms (list of strings),
//         token_count (int)).
// Returns: stored (int).
UNWIND $documents AS row
CALL (row) {
  WITH row WHERE $label = 'Belief'
  MATCH (n:Belief {agent_id: $agent_id, id: row.id})
  RETURN n
  UNION ALL
  WITH row WHERE $label = 'Rule'
  MATCH (n:Rule {agent_id: $agent_id, id: row.id})
  RETURN n
  UNION ALL
  WITH row WHERE $label = 'CorpusPassage'
  MATCH (n:CorpusPassage {agent_id: $agent_id, id: row.id})
  RETURN n
}
WITH n, row WHERE n.lexical_terms IS NULL
SET n.lexical_terms = row.lexical_terms, n.token_count = row.token_count
RETURN count(n) AS stored
