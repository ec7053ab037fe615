// Test probe: the vector in use of one rule, with the model that made it.
// Params: $id (string: a rule id).
// Returns: model (string or null), embedding (list of floats or null).
MATCH (r:Rule {id: $id})
RETURN r.embedding_model AS model, toFloatList(r.embedding) AS embedding
