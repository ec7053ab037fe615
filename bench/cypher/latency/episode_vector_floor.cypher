// The floor of /context, for bench/several_answers_latency.py --sections: one search of the
// episode vector index scoped to one agent inside the index (as the vector half of
// cypher/retrieval/search_episodes.cypher searches it), and nothing else.
// Params: $agent_id (string), $embedding (list of floats: the query's vector), $k (int).
// Returns: id (string), similarity (float), best first.
CYPHER 25
MATCH (e:Episode)
  SEARCH e IN (VECTOR INDEX episode_embedding FOR $embedding WHERE e.agent_id = $agent_id LIMIT $k)
  SCORE AS similarity
RETURN e.id AS id, similarity
ORDER BY similarity DESC
