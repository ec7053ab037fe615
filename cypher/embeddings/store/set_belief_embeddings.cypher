// Stores vectors on Beliefs (float32, as the vector index reads them) and clears the mark.
// Params: $rows (list of maps: id string, embedding float32 VECTOR (app/graph/vectors.py)).
// Returns: stored (int).
UNWIND $rows AS row
MATCH (n:Belief {id: row.id})
CALL db.create.setNodeVectorProperty(n, 'embedding', toFloatList(row.embedding))
REMOVE n.embedding_pending
RETURN count(n) AS stored
