// The fulltext candidates of the episode search with what re-scores them on the agent's own
// statistics (app/retrieval/lexical.py): the agent's episodes the fulltext index matches (at most
// $pool; Lucene's index-wide scores choose which only when more match), each with the query's
// terms among the words it is scored by (its stored lexical terms) and its length, or its
// indexed fields for an episode written before it stored its terms; the agent's corpus size and
// each query term's document frequency among the agent's episodes.
// Params: $agent_id (string), $agent_clause (string: app.text.lucene.agent_clause),
//         $terms (Lucene terms string), $term_list (list of strings: the same terms),
//         $pool (int).
// Returns: one row: hits (list of maps: id, terms (list of strings: its words that are query terms,
//          repeats kept), token_count (int); or id, search_text, user_message, response when
//          it stores no terms), docs, length (int or null: null when the agent has no
//          statistics yet), df (list of maps: term, df (int)).
CYPHER 25
CALL () {
  CALL db.index.fulltext.queryNodes('episode_search_fulltext',
         '(search_text:(' + $terms + ') OR user_message:(' + $terms + ') OR response:(' + $terms
         + ')) AND agent_id:' + $agent_clause, {limit: $pool})
    YIELD node
    WHERE node.agent_id = $agent_id
  RETURN collect(CASE WHEN node.lexical_terms IS NULL
                   THEN {id: node.id, search_text: node.search_text,
                         user_message: node.user_message, response: node.response}
                   ELSE {id: node.id, terms: [w IN node.lexical_terms WHERE w IN $term_list],
                         token_count: node.token_count}
                 END) AS hits
}
CALL () {
  UNWIND $term_list AS term
  OPTIONAL MATCH (t:LexicalTerm {id: $agent_id + '|' + term})
  RETURN collect({term: term, df: coalesce(t.df, 0)}) AS df
}
OPTIONAL MATCH (c:LexicalCorpus {id: $agent_id})
RETURN hits, c.docs AS docs, c.length AS length, df
