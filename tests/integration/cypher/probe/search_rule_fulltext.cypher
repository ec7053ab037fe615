// Probe: Lucene's own ranking of an agent's rules (index-wide scores), as the rule section's
// fulltext half ranked them before it scored them on the agent's own rules.
// Params: $terms (string, Lucene syntax), $agent_clause (string), $agent_id (string), $k (int).
// Returns: id (string), score (float).
CALL db.index.fulltext.queryNodes('rule_content_fulltext',
       'content:(' + $terms + ') AND agent_id:' + $agent_clause, {limit: $k})
YIELD node, score
WHERE node.agent_id = $agent_id
RETURN node.id AS id, score
