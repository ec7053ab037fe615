// Puts an agent's replacement vectors in use, label by label: each node reindexed to $model
// gets its new vector and model, and loses the replacement properties.
// Params: $label (string), $agent_id (string), $model (string).
// Returns: swapped (int).
CYPHER 25
MATCH (n:$($label) {agent_id: $agent_id})
WHERE n.embedding_next_model = $model
CALL db.create.setNodeVectorProperty(n, 'embedding', toFloatList(n.embedding_next))
SET n.embedding_model = $model
REMOVE n.embedding_next, n.embedding_next_model
RETURN count(n) AS swapped
