// Probe: the agent-scoped vector search (filter inside the index search, Cypher 25 SEARCH).
// Params: $agent_id (string), $vector (list of 384 floats), $k (int).
// Returns: id (string), agent_id (string), score (float).
CYPHER 25
MATCH (b:Belief)
  SEARCH b IN (VECTOR INDEX belief_embedding FOR $vector WHERE b.agent_id = $agent_id LIMIT $k)
  SCORE AS score
RETURN b.id AS id, b.agent_id AS agent_id, score
ORDER BY score DESC
