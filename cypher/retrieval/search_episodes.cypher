// Episode section of the context (DESIGN §7): the agent's episodes from the vector and fulltext
// indexes (scoped inside the index search), fused by reciprocal rank, then weighted by peak-end
// salience, interference, outcome and recency:
//   score = fused · salience / (1 + interference_penalty · interference)
//                 · (success_multiplier if outcome = success) · (1 + recency bonus)
// Params: $agent_id (string), $agent_clause (string: app.memory.lucene.agent_clause),
//         $embedding (list of floats or null), $terms (Lucene terms or null),
//         $candidates (int), $k (int), $since_7d (datetime), $since_30d (datetime),
//         $w (map: rrf_k, vector_weight, fulltext_weight, interference_penalty,
//             success_multiplier, recency_bonus_7d, recency_bonus_30d).
// Returns: id, external_id, speaker, text, occurred_at, session, outcome, salience, interference,
//          score (float), vector_rank, fulltext_rank (int or null).
CYPHER 25
CALL () {
  WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_weight > 0
  MATCH (e:Episode)
    SEARCH e IN (VECTOR INDEX episode_embedding FOR $embedding WHERE e.agent_id = $agent_id LIMIT $candidates)
    SCORE AS similarity
  WITH e ORDER BY similarity DESC
  WITH collect(e) AS hits
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i] AS e, i + 1 AS vector_rank, null AS fulltext_rank
  UNION ALL
  WITH 1 AS go WHERE $terms IS NOT NULL AND $w.fulltext_weight > 0
  CALL db.index.fulltext.queryNodes('episode_text_fulltext',
         '(text:(' + $terms + ') OR user_message:(' + $terms + ') OR response:(' + $terms
         + ')) AND agent_id:' + $agent_clause, {limit: $candidates})
    YIELD node, score
    WHERE node.agent_id = $agent_id
  WITH node ORDER BY score DESC
  WITH collect(node) AS hits
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i] AS e, null AS vector_rank, i + 1 AS fulltext_rank
}
WITH e, min(vector_rank) AS vector_rank, min(fulltext_rank) AS fulltext_rank
WITH e, vector_rank, fulltext_rank,
     coalesce($w.vector_weight / ($w.rrf_k + vector_rank), 0.0)
     + coalesce($w.fulltext_weight / ($w.rrf_k + fulltext_rank), 0.0) AS fused
WITH e, vector_rank, fulltext_rank,
     fused * coalesce(e.salience, 1.0)
       / (1.0 + $w.interference_penalty * coalesce(e.interference, 0))
       * CASE WHEN e.outcome = 'success' THEN $w.success_multiplier ELSE 1.0 END
       * (1.0 + CASE WHEN e.occurred_at >= $since_7d THEN $w.recency_bonus_7d
                     WHEN e.occurred_at >= $since_30d THEN $w.recency_bonus_30d
                     ELSE 0.0 END) AS score
ORDER BY score DESC
LIMIT $k
RETURN e.id AS id, e.external_id AS external_id, e.speaker AS speaker, e.text AS text,
       e.occurred_at AS occurred_at, e.session_key AS session, e.outcome AS outcome,
       coalesce(e.salience, 1.0) AS salience, coalesce(e.interference, 0) AS interference,
       score, vector_rank, fulltext_rank
