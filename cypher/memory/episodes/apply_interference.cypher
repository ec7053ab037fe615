// Interference (docs/memory.md §1): for each new episode, the agent's stored episodes at cosine ≥ the
// threshold are found through the vector index (scoped to the agent inside the search); of each
// similar pair the older memory suffers: a stored older episode gets interference + 1 here, and
// the count of stored newer ones is returned for the new episode (written when it is created).
// Neo4j's cosine score is (1 + cos) / 2, so $score_floor = (1 + threshold) / 2.
// Params: $agent_id (string), $k (int), $score_floor (float),
//         $embedding_model (string: the model that made the new vectors; only stored vectors it
//         made are compared),
//         $episodes (list of maps: id string, occurred_at datetime, embedding float32 VECTOR (app/graph/vectors.py)).
// Returns: id (string), newer_neighbours (int) per new episode that has similar stored ones.
CYPHER 25
CALL () {
  MATCH (x:Episode {agent_id: $agent_id})
    WHERE x.embedding IS NOT NULL AND x.embedding_model = $embedding_model
  RETURN x LIMIT $k
}
WITH collect(x) AS few
UNWIND $episodes AS row
// Neo4j 2026.08 fails a filtered vector search whose LIMIT exceeds the matching entries once the
// index holds deleted ones ("Index ... out of bounds"): an agent with fewer embedded episodes than
// $k is compared exactly instead (the same cosine score, read from its nodes).
CALL (row, few) {
  WITH row, few WHERE size(few) < $k
  UNWIND few AS old
  WITH old, vector.similarity.cosine(old.embedding, toFloatList(row.embedding)) AS score
  WHERE score >= $score_floor
  RETURN old
  UNION ALL
  WITH row, few WHERE size(few) >= $k
  MATCH (old:Episode)
    SEARCH old IN (VECTOR INDEX episode_embedding FOR toFloatList(row.embedding) WHERE old.agent_id = $agent_id LIMIT $k)
    SCORE AS score
  WHERE score >= $score_floor AND old.embedding_model = $embedding_model
  RETURN old
}
WITH row, old, old.occurred_at <= row.occurred_at AS old_is_older
CALL (old, old_is_older) {
  WITH old WHERE old_is_older
  SET old.interference = coalesce(old.interference, 0) + 1
}
RETURN row.id AS id, sum(CASE WHEN old_is_older THEN 0 ELSE 1 END) AS newer_neighbours
