// Episode section of the context (docs/retrieval.md §4, issue 12): the agent's episodes from the vector
// index (scoped inside the index search) and its lexical hits (app/retrieval/lexical.py: the
// fulltext index's candidates scored by BM25 on the agent's own statistics), fused, lifted by
// their session neighbours, then weighted by peak-end salience, interference, outcome and recency:
//   own   = vector_share · v + (1 − vector_share) · f   (fusion 'score': v, f = each half's
//           score min-max normalised over its candidates, 0 when not a candidate)
//         | Σ weight_i / (rrf_k + rank_i)                (fusion 'rrf')
//         + coverage_weight · c   (c: the share of the question's subjects the episode mentions,
//           app/retrieval/coverage.py; 0 when it mentions none)
//         + own_turn_weight · o   (o: the turn's cosine to $embedding min-max normalised over
//           the best $own_turn_pool turns said by one of $lists.own_turn_speakers, the people the
//           question names, of which the best $own_turn_candidates are candidates; 0 when not
//           one of them)
//   fused = own + neighbour_weight · max(own of the turns just before / after it in its session,
//           among the best $w.neighbour_sources candidates by own)
//           (such a neighbour of a candidate becomes a candidate itself)
//   weighted = fused · salience / (1 + interference_penalty · interference)
//                 · (success_multiplier if outcome = success)
//                 · (1 + recency bonus, when $w.recency = 'factor')
//                 · (1 + dated_bonus if the query asks "when" and the turn mentions a date)
//                 · (1 + date_match_bonus if a date the query names is the turn's day or one
//                   it mentions, at the precision of the coarser of the two)
//                 · (1 + person_bonus if the turn mentions a name the question says: its speaker
//                   or a name in its text, a MENTIONS edge to one of $w.name_subjects)
//                 · (1 + speaker_bonus if the turn's speaker is one of $w.asked_speakers)
//   score = min(score_cap, (weighted + heuristic_bonus · the rules derived from it)
//                 · (consolidated_factor if consolidated) · (trivial_factor if trivial)
//                 + (recency bonus, when $w.recency = 'additive'))   (seed 003's order)
// Its lists come inside one map, $lists (docs/style.md §1: no re-planning per list size).
// Params: $agent_id (string),
//         $embedding (list of floats or null),
//         $embedding_model (string: the model that made $embedding; only vectors it made are
//         compared),
//         $lists.lexical (list of maps, best first: id, rank (int), score (float, normalised); or
//         null when the lexical half is not searched),
//         $lists.coverage (list of maps: id, score (float in (0, 1]); or null: the coverage
//         half off),
//         $lists.own_turn_speakers (list of strings: lower-case speaker names whose own turns are
//         candidates; empty: none asked for), $own_turn_pool (int), $own_turn_scan (int: 0,
//         their nearest in the index scoped to them; N, their turns among the agent's N nearest),
//         $own_turn_candidates (int: how many of the best of the pool become candidates; the
//         cosine is normalised over the whole pool),
//         $candidates (int), $k (int), $since_7d, $since_30d (ISO datetimes as text: read once
//         here, cheaper than the driver's packing of a datetime, ~27 µs each),
//         $w (map: fusion ('score' | 'rrf'), vector_on, fulltext_on (booleans), vector_share,
//             rrf_k, vector_weight, fulltext_weight, neighbour_weight, neighbour_sources (int),
//             interference_penalty, success_multiplier, recency_bonus_7d, recency_bonus_30d,
//             recency ('factor' | 'additive'), heuristic_bonus, consolidated_factor,
//             trivial_factor, score_cap (float or null), asks_when (boolean),
//             dated_bonus, query_dates (list of ISO date strings), date_match_bonus,
//             coverage_weight, person_bonus, name_subjects (list of Subject ids),
//             own_turn_weight, speaker_bonus, asked_speakers (list of lower-case names)).
// Returns one record, rows: a list of maps, best first (one record, not one per row: the driver
// reads each record apart, GraphClient.read_collected), each with
//          id, external_id, speaker, text, occurred_at (string: toString of the datetime, read
//          by app/graph/times.py, cheaper than the driver's datetimes), session, seq (int or null),
//          mentioned_dates (list of ISO date strings), outcome,
//          salience, interference,
//          score (float), vector_rank, fulltext_rank (int or null), vector_score,
//          fulltext_score (normalised, float or null), coverage_score (float or null),
//          own_turn_score (float or null),
//          neighbour_of (id of the neighbour that
//          lifted it most, or null), neighbour_lift (float: the lift before the factors).
CYPHER 25
CALL () {
  // begin vector half (generated by tools/cypher/shared_blocks.py; edit the template there)
  WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_on
  CALL () {
    MATCH (x:Episode {agent_id: $agent_id})
      WHERE x.embedding IS NOT NULL AND x.embedding_model = $embedding_model
    RETURN x LIMIT $candidates
  }
  WITH collect(x) AS few
  // Neo4j 2026.08 fails a filtered vector search whose LIMIT exceeds the matching entries once the
  // index holds deleted ones ("Index ... out of bounds"): an agent with fewer embedded episodes
  // than the candidates is ranked exactly instead (the same cosine score, read from its nodes).
  CALL (few) {
    WITH few WHERE size(few) < $candidates
    UNWIND few AS e
    RETURN e, vector.similarity.cosine(e.embedding, $embedding) AS similarity
    UNION ALL
    WITH few WHERE size(few) >= $candidates
    MATCH (e:Episode)
      SEARCH e IN (VECTOR INDEX episode_embedding FOR $embedding WHERE e.agent_id = $agent_id LIMIT $candidates)
      SCORE AS similarity
    // Only the running model's vectors ($embedding_model made $embedding): no search mixes two.
    WITH e, similarity WHERE e.embedding_model = $embedding_model
    RETURN e, similarity
  }
  WITH e, similarity ORDER BY similarity DESC
  WITH collect({e: e, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
  UNWIND range(0, size(hits) - 1) AS i
  RETURN hits[i].e AS e, i + 1 AS vector_rank, null AS fulltext_rank,
         CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS vector_score,
         null AS fulltext_score, null AS coverage_score, null AS own_turn_score
  // end vector half
  UNION ALL
  WITH 1 AS go WHERE $lists.lexical IS NOT NULL AND $w.fulltext_on
  UNWIND $lists.lexical AS hit
  MATCH (e:Episode {id: hit.id})
    WHERE e.agent_id = $agent_id
  RETURN e, null AS vector_rank, hit.rank AS fulltext_rank, null AS vector_score,
         hit.score AS fulltext_score, null AS coverage_score, null AS own_turn_score
  UNION ALL
  WITH 1 AS go WHERE $lists.coverage IS NOT NULL
  UNWIND $lists.coverage AS hit
  MATCH (e:Episode {id: hit.id})
    WHERE e.agent_id = $agent_id
  RETURN e, null AS vector_rank, null AS fulltext_rank, null AS vector_score,
         null AS fulltext_score, hit.score AS coverage_score, null AS own_turn_score
  UNION ALL
  // The own turns of the people a question names: said by one of $lists.own_turn_speakers, the best
  // $own_turn_pool by cosine to $embedding, whichever session they are in. $own_turn_scan 0:
  // each one's nearest turns from the vector index scoped to the agent and the speaker
  // (speaker_key, V0031; ranked exactly when they said fewer than the pool); N > 0: their turns
  // among the agent's N nearest in the vector index (exactly, as the vector half does, for an
  // agent with fewer embedded episodes than N).
  WITH 1 AS go WHERE $embedding IS NOT NULL AND size($lists.own_turn_speakers) > 0
  CALL () {
    WITH 1 AS go WHERE $own_turn_scan = 0
    UNWIND $lists.own_turn_speakers AS name
    CALL (name) {
      MATCH (x:Episode {agent_id: $agent_id, speaker_key: name})
        WHERE x.embedding_model = $embedding_model
      RETURN x LIMIT $own_turn_pool
    }
    WITH name, collect(x) AS few
    // As in the vector half: a speaker with fewer turns than the pool is ranked exactly.
    CALL (name, few) {
      WITH few WHERE size(few) < $own_turn_pool
      UNWIND few AS e
      RETURN e, vector.similarity.cosine(e.embedding, $embedding) AS similarity
      UNION ALL
      WITH name, few WHERE size(few) >= $own_turn_pool
      MATCH (e:Episode)
        SEARCH e IN (VECTOR INDEX episode_embedding FOR $embedding
                     WHERE e.agent_id = $agent_id AND e.speaker_key = name LIMIT $own_turn_pool)
        SCORE AS similarity
      WITH e, similarity WHERE e.embedding_model = $embedding_model
      RETURN e, similarity
    }
    RETURN e, similarity
    UNION ALL
    WITH 1 AS go WHERE $own_turn_scan > 0
    CALL () {
      MATCH (x:Episode {agent_id: $agent_id})
        WHERE x.embedding IS NOT NULL AND x.embedding_model = $embedding_model
      RETURN x LIMIT $own_turn_scan
    }
    WITH collect(x) AS few
    CALL (few) {
      WITH few WHERE size(few) < $own_turn_scan
      UNWIND few AS e
      RETURN e, vector.similarity.cosine(e.embedding, $embedding) AS similarity
      UNION ALL
      WITH few WHERE size(few) >= $own_turn_scan
      MATCH (e:Episode)
        SEARCH e IN (VECTOR INDEX episode_embedding FOR $embedding WHERE e.agent_id = $agent_id LIMIT $own_turn_scan)
        SCORE AS similarity
      RETURN e, similarity
    }
    WITH e, similarity
      WHERE e.speaker_key IN $lists.own_turn_speakers AND e.embedding_model = $embedding_model
    RETURN e, similarity
  }
  WITH e, similarity
  ORDER BY similarity DESC, e.id
  LIMIT $own_turn_pool
  WITH collect({e: e, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
  UNWIND hits[0..$own_turn_candidates] AS hit
  RETURN hit.e AS e, null AS vector_rank, null AS fulltext_rank, null AS vector_score,
         null AS fulltext_score, null AS coverage_score,
         CASE WHEN hi > lo THEN (hit.s - lo) / (hi - lo) ELSE 1.0 END AS own_turn_score
}
WITH e, min(vector_rank) AS vector_rank, min(fulltext_rank) AS fulltext_rank,
     max(vector_score) AS vector_score, max(fulltext_score) AS fulltext_score,
     max(coverage_score) AS coverage_score, max(own_turn_score) AS own_turn_score
WITH e, {vector_rank: vector_rank, fulltext_rank: fulltext_rank, vector_score: vector_score,
         fulltext_score: fulltext_score, coverage_score: coverage_score,
         own_turn_score: own_turn_score,
         own: CASE $w.fusion
           WHEN 'rrf' THEN coalesce($w.vector_weight / ($w.rrf_k + vector_rank), 0.0)
                           + coalesce($w.fulltext_weight / ($w.rrf_k + fulltext_rank), 0.0)
           ELSE $w.vector_share * coalesce(vector_score, 0.0)
                + (1.0 - $w.vector_share) * coalesce(fulltext_score, 0.0) END
              + $w.coverage_weight * coalesce(coverage_score, 0.0)
              + $w.own_turn_weight * coalesce(own_turn_score, 0.0)} AS hit
// Only the best $w.neighbour_sources candidates (by their own score) lift their neighbours.
WITH e, hit ORDER BY hit.own DESC, e.id
WITH collect({e: e, hit: hit}) AS ranked
CALL (ranked) {
  UNWIND ranked AS r
  RETURN r.e AS candidate, r.hit AS found, null AS lifted_by, 0.0 AS lift
  UNION ALL
  WITH ranked WHERE $w.neighbour_weight > 0
  UNWIND ranked[0..$w.neighbour_sources] AS r
  WITH r.e AS source, r.hit.own AS lift
  MATCH (source)-[:NEXT]-(neighbour:Episode)
  RETURN neighbour AS candidate, null AS found, source.id AS lifted_by, lift
}
WITH candidate, found, lifted_by, lift ORDER BY lift DESC
WITH candidate AS e, collect(found)[0] AS hit, collect(lifted_by)[0] AS neighbour_of, max(lift) AS lift
// The episodes that mention a name the question says, found once from the named subjects (a
// subject has many mentions, an episode few: reading them per candidate cost ~3 ms a query).
WITH collect({e: e, hit: hit, neighbour_of: neighbour_of, lift: lift}) AS rows
WITH rows, datetime($since_7d) AS since_7d, datetime($since_30d) AS since_30d
CALL () {
  OPTIONAL MATCH (s:Subject)<-[:MENTIONS]-(m:Episode)
    WHERE s.id IN $w.name_subjects AND $w.person_bonus > 0
  RETURN collect(DISTINCT m) AS mentioning
}
UNWIND rows AS row
WITH row.e AS e, row.hit AS hit, row.neighbour_of AS neighbour_of, row.lift AS lift, mentioning,
     since_7d, since_30d
WITH e, hit, neighbour_of, lift, mentioning,
     CASE WHEN e.occurred_at >= since_7d THEN $w.recency_bonus_7d
          WHEN e.occurred_at >= since_30d THEN $w.recency_bonus_30d
          ELSE 0.0 END AS recent
WITH e, hit, neighbour_of, lift, recent, mentioning,
     (coalesce(hit.own, 0.0) + $w.neighbour_weight * lift)
       * coalesce(e.salience, 1.0)
       / (1.0 + $w.interference_penalty * coalesce(e.interference, 0))
       * CASE WHEN e.outcome = 'success' THEN $w.success_multiplier ELSE 1.0 END
       * (1.0 + CASE WHEN $w.recency = 'factor' THEN recent ELSE 0.0 END)
       * (1.0 + CASE WHEN $w.asks_when AND size(coalesce(e.mentioned_dates, [])) > 0
                     THEN $w.dated_bonus ELSE 0.0 END)
       * (1.0 + CASE WHEN any(asked IN $w.query_dates WHERE any(
                       said IN coalesce(e.mentioned_dates, []) + [toString(date(e.occurred_at))]
                       WHERE said STARTS WITH asked OR asked STARTS WITH said))
                     THEN $w.date_match_bonus ELSE 0.0 END)
       * (1.0 + CASE WHEN e IN mentioning THEN $w.person_bonus ELSE 0.0 END)
       * (1.0 + CASE WHEN e.speaker_key IN $w.asked_speakers
                     THEN $w.speaker_bonus ELSE 0.0 END) AS weighted
// Seed 003's retrieval bonuses (each off at its neutral value). Only rules derive from episodes
// (DERIVED_FROM): their count is the episode's degree, read without visiting the rules.
WITH e, hit, neighbour_of, lift,
     (weighted + CASE WHEN $w.heuristic_bonus > 0
                      THEN $w.heuristic_bonus * COUNT { (e)<-[:DERIVED_FROM]-() }
                      ELSE 0.0 END)
       * CASE WHEN e.consolidated THEN $w.consolidated_factor ELSE 1.0 END
       * CASE WHEN e.trivial THEN $w.trivial_factor ELSE 1.0 END
       + CASE WHEN $w.recency = 'additive' THEN recent ELSE 0.0 END AS raw
WITH e, hit, neighbour_of, lift,
     CASE WHEN $w.score_cap IS NOT NULL AND raw > $w.score_cap THEN $w.score_cap ELSE raw END
       AS score
ORDER BY score DESC
LIMIT $k
RETURN collect({
  id: e.id, external_id: e.external_id, speaker: e.speaker, text: e.text,
  occurred_at: toString(e.occurred_at), session: e.session_key, seq: e.seq,
  mentioned_dates: coalesce(e.mentioned_dates, []), outcome: e.outcome,
  salience: coalesce(e.salience, 1.0), interference: coalesce(e.interference, 0),
  score: score, vector_rank: hit.vector_rank, fulltext_rank: hit.fulltext_rank,
  vector_score: hit.vector_score, fulltext_score: hit.fulltext_score,
  coverage_score: hit.coverage_score, own_turn_score: hit.own_turn_score,
  neighbour_of: CASE WHEN lift > 0 THEN neighbour_of END,
  neighbour_lift: $w.neighbour_weight * lift
}) AS rows
