// Stores the replacement vectors a reindex made (beside the vectors in use, which queries keep
// reading until the agent's swap, embeddings/reindex/swap_vectors).
// Params: $label (string), $agent_id (string), $model (string),
//         $rows (list of maps: id string, embedding float32 VECTOR (app/graph/vectors.py)).
// Returns: stored (int).
CYPHER 25
UNWIND $rows AS row
MATCH (n:$($label) {agent_id: $agent_id, id: row.id})
CALL db.create.setNodeVectorProperty(n, 'embedding_next', toFloatList(row.embedding))
SET n.embedding_next_model = $model
RETURN count(n) AS stored
