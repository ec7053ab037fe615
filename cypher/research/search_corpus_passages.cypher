// Corpus search of an investigation (issue 16): the agent's passages from the vector and the
// fulltext index (both scoped to the agent inside the index search), fused as the episode
// section fuses (retrieval/search_episodes.cypher):
//   score = vector_share · v + (1 − vector_share) · f   (fusion 'score': v, f = each index's
//           score min-max normalised over its candidates, 0 when not a candidate)
//         | Σ weight_i / (rrf_k + rank_i)               (fusion 'rrf')
// Params: $agent_id (string), $agent_clause (string: app.text.lucene.agent_clause),
//         $embedding (list of floats or null), $terms (Lucene terms or null),
//         $candidates (int), $k (int),
//         $w (map: fusion, vector_on, fulltext_on, vector_share, rrf_k, vector_weight,
//             fulltext_weight).
// Returns: id, document_id, ordinal, text, title, origin, published (date or null),
//          score (float), vector_rank, fulltext_rank (int or null).
CYPHER 25
CALL () {
  WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_on
  MATCH (p:CorpusPassage)
    SEARCH p IN (VECTOR INDEX corpus_passage_embedding FOR $embedding WHERE p.agent_id = $agent_id LIMIT $candidates)
    SCORE AS similarity
  WITH p, similarity ORDER BY similarity DESC
  WITH collect({p: p, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i].p AS p, i + 1 AS vector_rank, null AS fulltext_rank,
         CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS vector_score,
         null AS fulltext_score
  UNION ALL
  WITH 1 AS go WHERE $terms IS NOT NULL AND $w.fulltext_on
  CALL db.index.fulltext.queryNodes('corpus_passage_text_fulltext',
         '(text:(' + $terms + ') OR title:(' + $terms + ')) AND agent_id:' + $agent_clause,
         {limit: $candidates})
    YIELD node, score
    WHERE node.agent_id = $agent_id
  WITH node, score ORDER BY score DESC
  WITH collect({p: node, s: score}) AS hits, min(score) AS lo, max(score) AS hi
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i].p AS p, null AS vector_rank, i + 1 AS fulltext_rank, null AS vector_score,
         CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS fulltext_score
}
WITH p, min(vector_rank) AS vector_rank, min(fulltext_rank) AS fulltext_rank,
     max(vector_score) AS vector_score, max(fulltext_score) AS fulltext_score
WITH p, vector_rank, fulltext_rank,
     CASE $w.fusion
       WHEN 'rrf' THEN coalesce($w.vector_weight / ($w.rrf_k + vector_rank), 0.0)
                       + coalesce($w.fulltext_weight / ($w.rrf_k + fulltext_rank), 0.0)
       ELSE $w.vector_share * coalesce(vector_score, 0.0)
            + (1.0 - $w.vector_share) * coalesce(fulltext_score, 0.0) END AS score
ORDER BY score DESC, p.id
LIMIT $k
MATCH (d:CorpusDocument {agent_id: $agent_id})-[:HAS_PASSAGE]->(p)
RETURN p.id AS id, p.document_id AS document_id, p.ordinal AS ordinal, p.text AS text,
       d.title AS title, d.origin AS origin, d.published AS published, score,
       vector_rank, fulltext_rank
ORDER BY score DESC, id
