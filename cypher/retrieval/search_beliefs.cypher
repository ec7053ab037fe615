// Belief section of the context (docs/retrieval.md §4): the agent's beliefs from the vector index and the
// fulltext index (both scoped to the agent inside the index search), fused as the episode
// section fuses (retrieval/search_episodes.cypher: 'score' or 'rrf'), weighted by strength, the top ones expanded one hop along SUPPORTS / CONTRADICTS, each with
// its open contradictions.
// Params: $agent_id (string), $agent_clause (string: app.memory.lucene.agent_clause),
//         $embedding (list of floats, or null: fulltext + graph only),
//         $terms (Lucene terms string, or null), $candidates (int), $k (int),
//         $w (map: fusion, vector_on, fulltext_on, vector_share, rrf_k, vector_weight,
//             fulltext_weight, strength_floor, expand_top, expansion_factor).
// Returns: id, statement, category, domain, strength, tension, importance, is_core,
//          score (float), vector_rank (int or null), fulltext_rank (int or null),
//          via (string: search/expansion), expanded_from (list of maps: id of the belief it was
//          reached from, type, direction seen from that belief: outgoing = it -> this one),
//          contradictions (list of maps: id, statement, strength, direction),
//          similarity (float: cosine of the belief's stored vector with $embedding, in [-1, 1];
//          null without an embedding on either side).
CYPHER 25
CALL () {
  CALL () {
    WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_on
    CALL () {
      MATCH (x:Belief {agent_id: $agent_id}) WHERE x.embedding IS NOT NULL
      RETURN x LIMIT $candidates
    }
    WITH collect(x) AS few
    // Neo4j 2026.08 fails a filtered vector search whose LIMIT exceeds the matching entries once the
    // index holds deleted ones ("Index ... out of bounds"): an agent with fewer embedded beliefs than
    // the candidates is ranked exactly instead (the same cosine score, read from its nodes).
    CALL (few) {
      WITH few WHERE size(few) < $candidates
      UNWIND few AS b
      RETURN b, vector.similarity.cosine(b.embedding, $embedding) AS similarity
      UNION ALL
      WITH few WHERE size(few) >= $candidates
      MATCH (b:Belief)
        SEARCH b IN (VECTOR INDEX belief_embedding FOR $embedding WHERE b.agent_id = $agent_id LIMIT $candidates)
        SCORE AS similarity
      RETURN b, similarity
    }
    WITH b, similarity ORDER BY similarity DESC
    WITH collect({b: b, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
    UNWIND range(0, size(hits) - 1) AS i
    RETURN hits[i].b AS b, i + 1 AS vector_rank, null AS fulltext_rank,
           CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS vector_score,
           null AS fulltext_score
    UNION ALL
    WITH 1 AS go WHERE $terms IS NOT NULL AND $w.fulltext_on
    CALL db.index.fulltext.queryNodes('belief_statement_fulltext',
           'statement:(' + $terms + ') AND agent_id:' + $agent_clause, {limit: $candidates})
      YIELD node, score
      WHERE node.agent_id = $agent_id
    WITH node, score ORDER BY score DESC
    WITH collect({b: node, s: score}) AS hits, min(score) AS lo, max(score) AS hi
    UNWIND range(0, size(hits) - 1) AS i
    RETURN hits[i].b AS b, null AS vector_rank, i + 1 AS fulltext_rank, null AS vector_score,
           CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS fulltext_score
  }
  WITH b, min(vector_rank) AS vector_rank, min(fulltext_rank) AS fulltext_rank,
       max(vector_score) AS vector_score, max(fulltext_score) AS fulltext_score
  WHERE b.is_active
  WITH b, vector_rank, fulltext_rank,
       CASE $w.fusion
         WHEN 'rrf' THEN coalesce($w.vector_weight / ($w.rrf_k + vector_rank), 0.0)
                         + coalesce($w.fulltext_weight / ($w.rrf_k + fulltext_rank), 0.0)
         ELSE $w.vector_share * coalesce(vector_score, 0.0)
              + (1.0 - $w.vector_share) * coalesce(fulltext_score, 0.0) END AS fused
  RETURN b, vector_rank, fulltext_rank,
         fused * ($w.strength_floor + (1.0 - $w.strength_floor) * b.strength) AS score
  ORDER BY score DESC
  LIMIT $k
}
WITH collect({b: b, vector_rank: vector_rank, fulltext_rank: fulltext_rank, score: score}) AS found
CALL (found) {
  UNWIND found[0..$w.expand_top] AS seed
  MATCH (seedBelief:Belief {id: seed.b.id})-[r:SUPPORTS|CONTRADICTS]-(n:Belief)
  WHERE n.is_active AND NOT n IN [f IN found | f.b]
  WITH n, seed, r, seedBelief,
       seed.score * $w.expansion_factor * coalesce(r.weight, r.strength, 1.0) AS via_score
  WITH n, max(via_score) AS score,
       collect({id: seedBelief.id, type: type(r),
                direction: CASE WHEN startNode(r) = seedBelief THEN 'outgoing' ELSE 'incoming' END})
         AS expanded_from
  RETURN collect({b: n, vector_rank: null, fulltext_rank: null, score: score,
                  expanded_from: expanded_from}) AS expanded
}
UNWIND [f IN found | f {.*, via: 'search', expanded_from: []}]
       + [e IN expanded | e {.*, via: 'expansion'}] AS item
WITH item, item.b AS b
OPTIONAL MATCH (b)-[c:CONTRADICTS]-(other:Belief)
WHERE coalesce(c.status, 'open') = 'open' AND other.is_active
WITH item, b,
     collect(CASE WHEN other IS NULL THEN null ELSE
       {id: other.id, statement: other.statement, strength: c.strength,
        direction: CASE WHEN startNode(c) = b THEN 'outgoing' ELSE 'incoming' END} END)
       AS contradictions
RETURN b.id AS id, b.statement AS statement, b.category AS category, b.domain AS domain,
       b.strength AS strength, b.tension AS tension, b.importance AS importance,
       b.is_core AS is_core, item.score AS score, item.vector_rank AS vector_rank,
       item.fulltext_rank AS fulltext_rank, item.via AS via,
       item.expanded_from AS expanded_from, contradictions,
       CASE WHEN $embedding IS NULL OR b.embedding IS NULL THEN null
            ELSE 2.0 * vector.similarity.cosine(toFloatList(b.embedding), $embedding) - 1.0
       END AS similarity
ORDER BY score DESC
