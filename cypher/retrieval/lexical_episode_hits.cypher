// The lexical half of the episode search (app/retrieval/lexical.py): the agent's episodes the
// fulltext index matches (at most $pool; Lucene's index-wide scores choose which only when more
// match), scored by BM25 on the agent's own statistics, in the database, so that only the best
// $keep travel (app/text/lexical.py bm25_of_words, the same arithmetic in the same order):
//   weight(t) = ln(1 + (N − n_t + 0.5) / (n_t + 0.5)),  N = max(docs, 1) + $background_docs,
//               n_t = min(max(df_t, 1), max(docs, 1)) + $background_docs · rate_t
//   score     = Σ_t weight(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · token_count / average))
//               over the query terms t the episode's stored words hold (tf: how often), average
//               = the corpus length / docs (1.0 without them); an episode holding none is left out.
// Its lists come inside one map, $lists (docs/style.md §1: no re-planning per list size).
// Params: $agent_id (string), $agent_clause (string: app.text.lucene.agent_clause),
//         $terms (Lucene terms string: the terms that match), $lists.term_rates (list of maps: term
//         (string, each once, in the query's order), rate (float: its background rate, 0.0
//         without a background): the terms that score, $terms' and maybe more, which count in
//         the scores of what $terms match but match nothing themselves),
//         $background_docs (int),
//         $k1 (float), $b (float), $pool (int), $keep (int).
// Returns: one row: hits (list of maps, best first, ties by id: id, score (float)), matched (int:
//          the fulltext matches), unstored (int: matches that store no terms; they are not
//          scored), docs (int or null: null when the agent has no statistics yet).
CYPHER 25
CALL () {
  OPTIONAL MATCH (c:LexicalCorpus {id: $agent_id})
  RETURN c.docs AS docs, c.length AS length
}
CALL () {
  UNWIND $lists.term_rates AS t
  OPTIONAL MATCH (lt:LexicalTerm {id: $agent_id + '|' + t.term})
  RETURN collect({term: t.term, df: coalesce(lt.df, 0), rate: t.rate}) AS dfs
}
WITH docs,
     CASE WHEN docs > 0 AND length > 0 THEN toFloat(length) / docs ELSE 1.0 END AS average,
     CASE WHEN docs > 1 THEN docs ELSE 1 END AS total, dfs
WITH docs, average,
     [d IN dfs | {term: d.term,
                  n: CASE WHEN d.df < 1 THEN 1 WHEN d.df > total THEN total ELSE d.df END
                     + $background_docs * d.rate}] AS counted, total + $background_docs AS all_docs
WITH docs, average,
     [c IN counted | {term: c.term,
                      weight: log(1.0 + (all_docs - c.n + 0.5) / (c.n + 0.5))}] AS weights,
     [t IN $lists.term_rates | t.term] AS term_list
CALL (weights, average, term_list) {
  CALL db.index.fulltext.queryNodes('episode_search_fulltext',
         '(search_text:(' + $terms + ') OR user_message:(' + $terms + ') OR response:(' + $terms
         + ')) AND agent_id:' + $agent_clause, {limit: $pool})
    YIELD node
    WHERE node.agent_id = $agent_id
  WITH node, [w IN node.lexical_terms WHERE w IN term_list] AS words,
       $k1 * (1.0 - $b + $b * coalesce(node.token_count, 0) / average) AS norm
  WITH node, reduce(s = 0.0, x IN [t IN weights | {weight: t.weight,
                                                   tf: size([w IN words WHERE w = t.term])}] |
                    CASE WHEN x.tf > 0 THEN s + x.weight * x.tf * ($k1 + 1.0) / (x.tf + norm)
                         ELSE s END) AS score
  WITH count(node) AS matched, sum(CASE WHEN node.lexical_terms IS NULL THEN 1 ELSE 0 END)
         AS unstored, collect(CASE WHEN score > 0 THEN {id: node.id, score: score} END) AS scored
  UNWIND (CASE WHEN scored = [] THEN [null] ELSE scored END) AS hit
  WITH matched, unstored, hit ORDER BY hit.score DESC, hit.id
  RETURN matched, unstored, [h IN collect(hit) WHERE h IS NOT NULL][0..$keep] AS hits
}
RETURN hits, matched, unstored, docs
