// Guide, "What it holds most firmly", drawn: the five most firmly held supported beliefs (as in
// list_strongest_beliefs) and the beliefs that SUPPORT them (at most 40 edges, so at most 45
// nodes).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one path per SUPPORTS edge: path :: PATH (supporter)-[:SUPPORTS]->(belief)
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active AND EXISTS { (:Belief {is_active: true})-[:SUPPORTS]->(b) }
OPTIONAL MATCH (b)-[h:HOLDS_IN]->(:Context)
WITH b, coalesce(max(h.strength), 0.0) AS in_context
WITH b, CASE WHEN in_context > b.strength THEN in_context ELSE b.strength END AS firmness,
     COUNT { (:Belief {is_active: true})-[:SUPPORTS]->(b) } AS supported_by
ORDER BY firmness DESC, supported_by DESC, b.id
LIMIT 5
MATCH path = (:Belief {is_active: true})-[:SUPPORTS]->(b)
RETURN path
LIMIT 40
