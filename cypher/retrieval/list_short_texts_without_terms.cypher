// Beliefs, rules or research-corpus passages of the agent that store no lexical terms yet (written
// before documents stored them), with their text (the indexed fields' values, one a line), a
// batch at a time (app/retrieval/stored_terms.py gives them their terms). Inactive beliefs too.
// Params: $label (string: 'Belief', 'Rule' or 'CorpusPassage'), $fields (list of strings: the
//         indexed text properties), $agent_id (string), $limit (int).
// Returns: id, text (strings).
CALL () {
  WITH 1 AS go WHERE $label = 'Belief'
  MATCH (n:Belief {agent_id: $agent_id}) WHERE n.lexical_terms IS NULL
  RETURN n
  UNION ALL
  WITH 1 AS go WHERE $label = 'Rule'
  MATCH (n:Rule {agent_id: $agent_id}) WHERE n.lexical_terms IS NULL
  RETURN n
  UNION ALL
  WITH 1 AS go WHERE $label = 'CorpusPassage'
  MATCH (n:CorpusPassage {agent_id: $agent_id}) WHERE n.lexical_terms IS NULL
  RETURN n
}
WITH n LIMIT $limit
RETURN n.id AS id, reduce(t = '', f IN $fields | t + coalesce(n[f], '') + '\n') AS text
