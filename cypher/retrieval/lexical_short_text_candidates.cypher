// The fulltext candidates of the belief, the rule or the research corpus search with what
// re-scores them on the agent's own documents at query time (app/retrieval/lexical.py): the
// agent's documents the fulltext index matches in any of $lists.fields (at most $pool, Lucene's
// order; inactive beliefs dropped after the limit), each with the query's terms among the words
// it is scored by (its stored lexical terms) and its length, or its text (the fields' values,
// one a line) when it stores no terms (written before documents stored them);
// how many documents the agent has and their length: the sum of the lengths stored on the
// documents that carry one (`token_count`, written with their terms), and the text of up to
// $length_sample of the others, whose mean length stands for theirs (every one for an agent with
// no more; else the first in the index's order, which no other agent's nodes change); and, when
// more than $pool documents matched, each query term's document frequency among the agent's
// documents (the index's matches of the agent for that term alone, counted; with fewer, every
// match is among the hits and they are counted there). Every figure is counted over the agent's own live documents, so
// no other agent's nodes, present or deleted, enter them; Lucene's index-wide scores only choose
// which $pool documents come back when more match.
// Beliefs and rules: the active ones (`is_active`; a rule a pack version retired is not, one
// stored without the flag is); corpus passages: every one (they have no `is_active`).
// Its lists come inside one map, $lists (docs/style.md §1: no re-planning per list size).
// Params: $label (string: 'Belief', 'Rule' or 'CorpusPassage'), $index (string:
//         belief_statement_fulltext, rule_content_fulltext or corpus_passage_text_fulltext),
//         $lists.fields (list of strings: the indexed text properties, e.g. ['statement'] or
//         ['title', 'text']), $agent_id (string),
//         $agent_clause (string: app.text.lucene.agent_clause),
//         $terms (Lucene terms string), $lists.term_list (list of strings: the same terms),
//         $pool (int), $length_sample (int).
// Returns: one row: hits (list of maps: id, terms (list of strings: its words that are query
//          terms, repeats kept), token_count (int); or id, text), docs (int), stored (int: documents with a
//          stored length), stored_length (int: their lengths summed), sample (list of strings:
//          texts of documents without one), df (list of maps: term, df (int)), or null when
//          every match is among the hits.
CYPHER 25
CALL () {
  CALL db.index.fulltext.queryNodes($index,
         '(' + reduce(q = '', f IN $lists.fields | q + CASE q WHEN '' THEN '' ELSE ' OR ' END
                                                + f + ':(' + $terms + ')')
         + ') AND agent_id:' + $agent_clause, {limit: $pool})
    YIELD node
  WITH collect(node) AS found
  RETURN size(found) AS matched,
         [n IN found WHERE n.agent_id = $agent_id AND coalesce(n.is_active, true)
          | CASE WHEN n.lexical_terms IS NULL
              THEN {id: n.id,
                    text: reduce(t = '', f IN $lists.fields | t + coalesce(n[f], '') + '\n')}
              ELSE {id: n.id, terms: [w IN n.lexical_terms WHERE w IN $lists.term_list],
                    token_count: n.token_count}
            END] AS hits
}
CALL (matched) {
  UNWIND CASE WHEN matched >= $pool THEN $lists.term_list ELSE [] END AS term
  CALL (term) {
    CALL db.index.fulltext.queryNodes($index,
           '(' + reduce(q = '', f IN $lists.fields | q + CASE q WHEN '' THEN '' ELSE ' OR ' END
                                                  + f + ':(' + term + ')')
           + ') AND agent_id:' + $agent_clause)
      YIELD node
      WHERE node.agent_id = $agent_id AND coalesce(node.is_active, true)
    RETURN count(node) AS df
  }
  RETURN collect({term: term, df: df}) AS counted
}
CALL () {
  CALL () {
    WITH 1 AS go WHERE $label = 'Belief'
    MATCH (n:Belief {agent_id: $agent_id, is_active: true})
    RETURN n
    UNION ALL
    WITH 1 AS go WHERE $label = 'Rule'
    MATCH (n:Rule {agent_id: $agent_id})
      WHERE coalesce(n.is_active, true)
    RETURN n
    UNION ALL
    WITH 1 AS go WHERE $label = 'CorpusPassage'
    MATCH (n:CorpusPassage {agent_id: $agent_id})
    RETURN n
  }
  WITH collect(n) AS every
  WITH every, [n IN every WHERE n.token_count IS NULL] AS unknown
  RETURN size(every) AS docs, size(every) - size(unknown) AS stored,
         reduce(total = 0, n IN every | total + coalesce(n.token_count, 0)) AS stored_length,
         [n IN unknown[0..$length_sample]
          | reduce(t = '', f IN $lists.fields | t + coalesce(n[f], '') + '\n')] AS sample
}
RETURN hits, docs, stored, stored_length, sample,
       CASE WHEN matched >= $pool THEN counted END AS df
