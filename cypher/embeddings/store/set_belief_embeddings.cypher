// Stores vectors on Beliefs (float32, as the vector index reads them) with the model that made
// them, and clears the mark.
// Params: $rows (list of maps: id string, embedding float32 VECTOR (app/graph/vectors.py)),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id).
// Returns: stored (int).
UNWIND $rows AS row
MATCH (n:Belief {id: row.id})
CALL db.create.setNodeVectorProperty(n, 'embedding', toFloatList(row.embedding))
SET n.embedding_model = $embedding_model
REMOVE n.embedding_pending
RETURN count(n) AS stored
