// The fulltext candidates of the belief or the rule search with what re-scores them on the
// agent's own documents at query time (app/retrieval/lexical.py): the agent's documents the
// fulltext index matches (at most $pool, Lucene's order; inactive beliefs dropped after the
// limit), their text; how many of the agent's documents there are and their total length in
// characters; each query term's document frequency among them (the index's matches of the agent
// for that term alone, counted). Every figure is counted over the agent's own live documents, so
// no other agent's nodes, present or deleted, enter them; Lucene's index-wide scores only choose
// which $pool documents come back when more match.
// Beliefs: the active ones (`is_active`); rules: every rule (they have no `is_active`).
// Params: $label (string: 'Belief' or 'Rule'), $index (string: belief_statement_fulltext or
//         rule_content_fulltext), $field (string: statement or content, the indexed text),
//         $agent_id (string), $agent_clause (string: app.text.lucene.agent_clause),
//         $terms (Lucene terms string), $term_list (list of strings: the same terms),
//         $pool (int).
// Returns: one row: hits (list of maps: id, text), docs (int), length (int),
//          df (list of maps: term, df (int)).
CYPHER 25
CALL () {
  CALL db.index.fulltext.queryNodes($index,
         $field + ':(' + $terms + ') AND agent_id:' + $agent_clause, {limit: $pool})
    YIELD node
    WHERE node.agent_id = $agent_id AND coalesce(node.is_active, true)
  RETURN collect({id: node.id, text: node[$field]}) AS hits
}
CALL () {
  UNWIND $term_list AS term
  CALL (term) {
    CALL db.index.fulltext.queryNodes($index,
           $field + ':(' + term + ') AND agent_id:' + $agent_clause)
      YIELD node
      WHERE node.agent_id = $agent_id AND coalesce(node.is_active, true)
    RETURN count(node) AS df
  }
  RETURN collect({term: term, df: df}) AS df
}
CALL () {
  CALL () {
    WITH 1 AS go WHERE $label = 'Belief'
    MATCH (n:Belief {agent_id: $agent_id}) WHERE n.is_active
    RETURN n.statement AS text
    UNION ALL
    WITH 1 AS go WHERE $label = 'Rule'
    MATCH (n:Rule {agent_id: $agent_id})
    RETURN n.content AS text
  }
  RETURN count(text) AS docs, sum(size(text)) AS length
}
RETURN hits, docs, length, df
