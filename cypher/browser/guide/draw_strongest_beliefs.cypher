// Guide, "What it holds most firmly", drawn: the five strongest supported beliefs and the
// beliefs that SUPPORT them (at most 40 edges, so at most 45 nodes).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one path per SUPPORTS edge: path :: PATH (supporter)-[:SUPPORTS]->(belief)
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active AND EXISTS { (:Belief {is_active: true})-[:SUPPORTS]->(b) }
WITH b ORDER BY b.strength DESC, b.importance DESC, b.id LIMIT 5
MATCH path = (:Belief {is_active: true})-[:SUPPORTS]->(b)
RETURN path
LIMIT 40
