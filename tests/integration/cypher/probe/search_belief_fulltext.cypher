// Probe: the agent-scoped fulltext search (agent_id is a field of the fulltext index).
// Params: $terms (string, Lucene syntax), $agent_id (string), $k (int).
// Returns: id (string), agent_id (string), score (float).
CALL db.index.fulltext.queryNodes('belief_statement_fulltext',
       'statement:(' + $terms + ') AND agent_id:"' + $agent_id + '"', {limit: $k})
YIELD node, score
RETURN node.id AS id, node.agent_id AS agent_id, score
