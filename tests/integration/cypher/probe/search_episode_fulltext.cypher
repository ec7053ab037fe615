// Probe: the agent-scoped episode fulltext search with Lucene's own (index-wide) scores: what the
// episode search ranked by before it re-scored on the agent's own statistics.
// Params: $terms (string, Lucene terms), $agent_clause (string), $agent_id (string), $k (int).
// Returns: external_id (string), score (float), best first.
CALL db.index.fulltext.queryNodes('episode_search_fulltext',
       'search_text:(' + $terms + ') AND agent_id:' + $agent_clause, {limit: $k})
YIELD node, score
WHERE node.agent_id = $agent_id
RETURN node.external_id AS external_id, score
ORDER BY score DESC, external_id
