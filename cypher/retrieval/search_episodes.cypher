// Episode section of the context (docs/retrieval.md §4, issue 12): the agent's episodes from the vector
// index (scoped inside the index search) and its lexical hits (app/retrieval/lexical.py: the
// fulltext index's candidates scored by BM25 on the agent's own statistics), fused, lifted by
// their session neighbours, then weighted by peak-end salience, interference, outcome and recency:
//   own   = vector_share · v + (1 − vector_share) · f   (fusion 'score': v, f = each half's
//           score min-max normalised over its candidates, 0 when not a candidate)
//         | Σ weight_i / (rrf_k + rank_i)                (fusion 'rrf')
//         + coverage_weight · c   (c: the share of the question's subjects the episode mentions,
//           app/retrieval/coverage.py; 0 when it mentions none)
//   fused = own + neighbour_weight · max(own of the turns just before / after it in its session)
//           (such a neighbour of a candidate becomes a candidate itself)
//   score = fused · salience / (1 + interference_penalty · interference)
//                 · (success_multiplier if outcome = success) · (1 + recency bonus)
//                 · (1 + dated_bonus if the query asks "when" and the turn mentions a date)
//                 · (1 + date_match_bonus if a date the query names is the turn's day or one
//                   it mentions, at the precision of the coarser of the two)
//                 · (1 + person_bonus if the turn mentions a name the question says: its speaker
//                   or a name in its text, a MENTIONS edge to one of $w.name_subjects)
// Params: $agent_id (string),
//         $embedding (list of floats or null),
//         $lexical (list of maps, best first: id, rank (int), score (float, normalised); or
//         null when the lexical half is not searched),
//         $coverage (list of maps: id, score (float in (0, 1]); or null: the coverage half off),
//         $candidates (int), $k (int), $since_7d (datetime), $since_30d (datetime),
//         $w (map: fusion ('score' | 'rrf'), vector_on, fulltext_on (booleans), vector_share,
//             rrf_k, vector_weight, fulltext_weight, neighbour_weight, interference_penalty,
//             success_multiplier, recency_bonus_7d, recency_bonus_30d, asks_when (boolean),
//             dated_bonus, query_dates (list of ISO date strings), date_match_bonus,
//             coverage_weight, person_bonus, name_subjects (list of Subject ids)).
// Returns: id, external_id, speaker, text, occurred_at, session, seq (int or null),
//          mentioned_dates (list of ISO date strings), outcome,
//          salience, interference,
//          score (float), vector_rank, fulltext_rank (int or null), vector_score,
//          fulltext_score (normalised, float or null), coverage_score (float or null),
//          neighbour_of (id of the neighbour that
//          lifted it most, or null), neighbour_lift (float: the lift before the factors).
CYPHER 25
CALL () {
  WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_on
  CALL () {
    MATCH (x:Episode {agent_id: $agent_id}) WHERE x.embedding IS NOT NULL
    RETURN x LIMIT $candidates
  }
  WITH collect(x) AS few
  // Neo4j 2026.08 fails a filtered vector search whose LIMIT exceeds the matching entries once the
  // index holds deleted ones ("Index ... out of bounds"): an agent with fewer embedded episodes than
  // the candidates is ranked exactly instead (the same cosine score, read from its nodes).
  CALL (few) {
    WITH few WHERE size(few) < $candidates
    UNWIND few AS e
    RETURN e, vector.similarity.cosine(e.embedding, $embedding) AS similarity
    UNION ALL
    WITH few WHERE size(few) >= $candidates
    MATCH (e:Episode)
      SEARCH e IN (VECTOR INDEX episode_embedding FOR $embedding WHERE e.agent_id = $agent_id LIMIT $candidates)
      SCORE AS similarity
    RETURN e, similarity
  }
  WITH e, similarity ORDER BY similarity DESC
  WITH collect({e: e, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i].e AS e, i + 1 AS vector_rank, null AS fulltext_rank,
         CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS vector_score,
         null AS fulltext_score, null AS coverage_score
  UNION ALL
  WITH 1 AS go WHERE $lexical IS NOT NULL AND $w.fulltext_on
  UNWIND $lexical AS hit
  MATCH (e:Episode {id: hit.id})
    WHERE e.agent_id = $agent_id
  RETURN e, null AS vector_rank, hit.rank AS fulltext_rank, null AS vector_score,
         hit.score AS fulltext_score, null AS coverage_score
  UNION ALL
  WITH 1 AS go WHERE $coverage IS NOT NULL
  UNWIND $coverage AS hit
  MATCH (e:Episode {id: hit.id})
    WHERE e.agent_id = $agent_id
  RETURN e, null AS vector_rank, null AS fulltext_rank, null AS vector_score,
         null AS fulltext_score, hit.score AS coverage_score
}
WITH e, min(vector_rank) AS vector_rank, min(fulltext_rank) AS fulltext_rank,
     max(vector_score) AS vector_score, max(fulltext_score) AS fulltext_score,
     max(coverage_score) AS coverage_score
WITH e, {vector_rank: vector_rank, fulltext_rank: fulltext_rank, vector_score: vector_score,
         fulltext_score: fulltext_score, coverage_score: coverage_score,
         own: CASE $w.fusion
           WHEN 'rrf' THEN coalesce($w.vector_weight / ($w.rrf_k + vector_rank), 0.0)
                           + coalesce($w.fulltext_weight / ($w.rrf_k + fulltext_rank), 0.0)
           ELSE $w.vector_share * coalesce(vector_score, 0.0)
                + (1.0 - $w.vector_share) * coalesce(fulltext_score, 0.0) END
              + $w.coverage_weight * coalesce(coverage_score, 0.0)} AS hit
CALL (e, hit) {
  RETURN e AS candidate, hit AS found, null AS lifted_by, 0.0 AS lift
  UNION ALL
  WITH e, hit WHERE $w.neighbour_weight > 0
  MATCH (e)-[:NEXT]-(neighbour:Episode)
  RETURN neighbour AS candidate, null AS found, e.id AS lifted_by, hit.own AS lift
}
WITH candidate, found, lifted_by, lift ORDER BY lift DESC
WITH candidate AS e, collect(found)[0] AS hit, collect(lifted_by)[0] AS neighbour_of, max(lift) AS lift
WITH e, hit, neighbour_of, lift,
     (coalesce(hit.own, 0.0) + $w.neighbour_weight * lift)
       * coalesce(e.salience, 1.0)
       / (1.0 + $w.interference_penalty * coalesce(e.interference, 0))
       * CASE WHEN e.outcome = 'success' THEN $w.success_multiplier ELSE 1.0 END
       * (1.0 + CASE WHEN e.occurred_at >= $since_7d THEN $w.recency_bonus_7d
                     WHEN e.occurred_at >= $since_30d THEN $w.recency_bonus_30d
                     ELSE 0.0 END)
       * (1.0 + CASE WHEN $w.asks_when AND size(coalesce(e.mentioned_dates, [])) > 0
                     THEN $w.dated_bonus ELSE 0.0 END)
       * (1.0 + CASE WHEN any(asked IN $w.query_dates WHERE any(
                       said IN coalesce(e.mentioned_dates, []) + [toString(date(e.occurred_at))]
                       WHERE said STARTS WITH asked OR asked STARTS WITH said))
                     THEN $w.date_match_bonus ELSE 0.0 END)
       * (1.0 + CASE WHEN $w.person_bonus > 0 AND size($w.name_subjects) > 0
                      AND EXISTS { (e)-[:MENTIONS]->(s:Subject) WHERE s.id IN $w.name_subjects }
                     THEN $w.person_bonus ELSE 0.0 END) AS score
ORDER BY score DESC
LIMIT $k
RETURN e.id AS id, e.external_id AS external_id, e.speaker AS speaker, e.text AS text,
       e.occurred_at AS occurred_at, e.session_key AS session, e.seq AS seq,
       coalesce(e.mentioned_dates, []) AS mentioned_dates, e.outcome AS outcome,
       coalesce(e.salience, 1.0) AS salience, coalesce(e.interference, 0) AS interference,
       score, hit.vector_rank AS vector_rank, hit.fulltext_rank AS fulltext_rank,
       hit.vector_score AS vector_score, hit.fulltext_score AS fulltext_score,
       hit.coverage_score AS coverage_score,
       CASE WHEN lift > 0 THEN neighbour_of END AS neighbour_of,
       $w.neighbour_weight * lift AS neighbour_lift
