// Test probe: the vector state of beliefs (which model made the vector in use, and the
// replacement a reindex stored).
// Params: $ids (list of belief ids).
// Returns: id (string), embedded (boolean), model (string or null), next_model (string or null),
//          pending (boolean), in the order of $ids.
UNWIND $ids AS belief_id
MATCH (b:Belief {id: belief_id})
RETURN b.id AS id, b.embedding IS NOT NULL AS embedded, b.embedding_model AS model,
       b.embedding_next_model AS next_model, coalesce(b.embedding_pending, false) AS pending
