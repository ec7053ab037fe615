// Rule section of the context: the agent's rules from the vector and fulltext indexes, fused as
// the episode section fuses (retrieval/search_episodes.cypher) and weighted by confidence decayed since the last validation (docs/memory.md §5:
// confidence · 0.95^(months since validation) once 30 days have passed).
// Params: $agent_id (string), $agent_clause (string: app.memory.lucene.agent_clause),
//         $embedding (list of floats or null), $terms (Lucene terms or null),
//         $candidates (int), $k (int), $w (map: fusion, vector_on, fulltext_on,
//             vector_share, rrf_k, vector_weight, fulltext_weight).
// Returns: id, trigger_concept, content, source, confidence, effective_confidence, score,
//          vector_rank, fulltext_rank, similarity (float: cosine of the rule's stored vector
//          with $embedding, in [-1, 1]; null without either).
CYPHER 25
CALL () {
  WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_on
  CALL () {
    MATCH (x:Rule {agent_id: $agent_id}) WHERE x.embedding IS NOT NULL
    RETURN x LIMIT $candidates
  }
  WITH collect(x) AS few
  // Neo4j 2026.08 fails a filtered vector search whose LIMIT exceeds the matching entries once the
  // index holds deleted ones ("Index ... out of bounds"): an agent with fewer embedded rules than
  // the candidates is ranked exactly instead (the same cosine score, read from its nodes).
  CALL (few) {
    WITH few WHERE size(few) < $candidates
    UNWIND few AS r
    RETURN r, vector.similarity.cosine(r.embedding, $embedding) AS similarity
    UNION ALL
    WITH few WHERE size(few) >= $candidates
    MATCH (r:Rule)
      SEARCH r IN (VECTOR INDEX rule_embedding FOR $embedding WHERE r.agent_id = $agent_id LIMIT $candidates)
      SCORE AS similarity
    RETURN r, similarity
  }
  WITH r, similarity ORDER BY similarity DESC
  WITH collect({r: r, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i].r AS r, i + 1 AS vector_rank, null AS fulltext_rank,
         CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS vector_score,
         null AS fulltext_score
  UNION ALL
  WITH 1 AS go WHERE $terms IS NOT NULL AND $w.fulltext_on
  CALL db.index.fulltext.queryNodes('rule_content_fulltext',
         'content:(' + $terms + ') AND agent_id:' + $agent_clause, {limit: $candidates})
    YIELD node, score
    WHERE node.agent_id = $agent_id
  WITH node, score ORDER BY score DESC
  WITH collect({r: node, s: score}) AS hits, min(score) AS lo, max(score) AS hi
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i].r AS r, null AS vector_rank, i + 1 AS fulltext_rank, null AS vector_score,
         CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS fulltext_score
}
WITH r, min(vector_rank) AS vector_rank, min(fulltext_rank) AS fulltext_rank,
     max(vector_score) AS vector_score, max(fulltext_score) AS fulltext_score
WITH r, vector_rank, fulltext_rank,
     CASE $w.fusion
       WHEN 'rrf' THEN coalesce($w.vector_weight / ($w.rrf_k + vector_rank), 0.0)
                       + coalesce($w.fulltext_weight / ($w.rrf_k + fulltext_rank), 0.0)
       ELSE $w.vector_share * coalesce(vector_score, 0.0)
            + (1.0 - $w.vector_share) * coalesce(fulltext_score, 0.0) END AS fused,
     duration.inDays(coalesce(r.last_validated, r.created_at, datetime()), datetime()).days
       AS idle_days
WITH r, vector_rank, fulltext_rank, fused,
     coalesce(r.confidence, 0.5)
       * CASE WHEN idle_days > 30 THEN 0.95 ^ (idle_days / 30.0) ELSE 1.0 END
       AS effective_confidence
RETURN r.id AS id, r.trigger_concept AS trigger_concept, r.content AS content,
       r.source AS source, r.confidence AS confidence, effective_confidence,
       fused * effective_confidence AS score, vector_rank, fulltext_rank,
       CASE WHEN $embedding IS NULL OR r.embedding IS NULL THEN null
            ELSE 2.0 * vector.similarity.cosine(toFloatList(r.embedding), $embedding) - 1.0
       END AS similarity
ORDER BY score DESC
LIMIT $k
