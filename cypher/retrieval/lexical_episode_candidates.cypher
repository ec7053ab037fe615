// The fulltext candidates of the episode search with what re-scores them on the agent's own
// statistics (app/retrieval/lexical.py): the agent's episodes the fulltext index matches (at most
// $pool, Lucene's order), their indexed fields, the agent's corpus size and each query term's
// document frequency among the agent's episodes. Lucene's own scores (index-wide statistics)
// only choose which $pool episodes come back.
// Params: $agent_id (string), $agent_clause (string: app.text.lucene.agent_clause),
//         $terms (Lucene terms string), $term_list (list of strings: the same terms),
//         $pool (int).
// Returns: one row: hits (list of maps: id, search_text, user_message, response),
//          docs, length (int or null: null when the agent has no statistics yet),
//          df (list of maps: term, df (int)).
CALL () {
  CALL db.index.fulltext.queryNodes('episode_search_fulltext',
         '(search_text:(' + $terms + ') OR user_message:(' + $terms + ') OR response:(' + $terms
         + ')) AND agent_id:' + $agent_clause, {limit: $pool})
    YIELD node
    WHERE node.agent_id = $agent_id
  RETURN collect({id: node.id, search_text: node.search_text, user_message: node.user_message,
                  response: node.response}) AS hits
}
CALL () {
  UNWIND $term_list AS term
  OPTIONAL MATCH (t:LexicalTerm {id: $agent_id + '|' + term})
  RETURN collect({term: term, df: coalesce(t.df, 0)}) AS df
}
OPTIONAL MATCH (c:LexicalCorpus {id: $agent_id})
RETURN hits, c.docs AS docs, c.length AS length, df
