// Stores the deferred vectors of new episodes (float32, as the vector index reads them) with the
// embedding scheme they were made under, and adds to each the interference its similar newer
// stored episodes bring (memory/episodes/apply_interference's count, as create_episodes writes it
// for an episode embedded at once).
// Params: $agent_id (string), $scheme (int),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id),
//         $rows (list of maps: id string, embedding float32 VECTOR (app/graph/vectors.py),
//         newer int).
// Returns: stored (int).
UNWIND $rows AS row
MATCH (e:Episode {agent_id: $agent_id, id: row.id})
WHERE e.embedding IS NULL
CALL db.create.setNodeVectorProperty(e, 'embedding', toFloatList(row.embedding))
SET e.embedding_scheme = $scheme,
    e.embedding_model = $embedding_model,
    e.interference = coalesce(e.interference, 0) + row.newer
REMOVE e.embedding_pending
RETURN count(e) AS stored
