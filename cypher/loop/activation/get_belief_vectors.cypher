// The stored vectors of some beliefs with the statements they embed, so a turn can hand them to
// the embedder instead of running the model on statements the graph already holds vectors for.
// Params: $agent_id (string), $ids (list of belief ids), $dimensions (int: of the stored vectors),
//         $embedding_model (string: only vectors this model made are returned).
// Returns one record, rows: a list of maps (one record, not one per row:
//          GraphClient.read_collected), each with text (string: the statement), embedding (a
//          float32 VECTOR). Beliefs without a vector (not embedded yet) are left out.
UNWIND $ids AS belief_id
MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
WHERE b.embedding IS NOT NULL AND b.embedding_model = $embedding_model
RETURN collect({text: b.statement, embedding: vector(b.embedding, $dimensions, FLOAT32)}) AS rows
