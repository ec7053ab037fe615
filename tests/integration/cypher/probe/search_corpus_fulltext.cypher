// Probe: Lucene's own agent-scoped search of the corpus passages (index-wide BM25 statistics),
// as the corpus search read it before it scored on the agent's own passages.
// Params: $terms (string, Lucene syntax), $agent_clause (string), $agent_id (string), $k (int).
// Returns: id (string), score (float).
CALL db.index.fulltext.queryNodes('corpus_passage_text_fulltext',
       '(text:(' + $terms + ') OR title:(' + $terms + ')) AND agent_id:' + $agent_clause,
       {limit: $k})
YIELD node, score
WHERE node.agent_id = $agent_id
RETURN node.id AS id, score
