// Test probe: the vector in use of one belief, with the model that made it.
// Params: $id (string: a belief id).
// Returns: model (string or null), embedding (list of floats or null), next_model (string or null).
MATCH (b:Belief {id: $id})
RETURN b.embedding_model AS model, toFloatList(b.embedding) AS embedding,
       b.embedding_next_model AS next_model
