// Puts an agent's replacement vectors in use, label by label: each node reindexed to $model
// gets its new vector and model, and loses the replacement properties. A node whose vector was
// written anew by $model after its replacement was stored (its text edited by an API of the new
// model) keeps that vector: it only loses the replacement, which embeds what it said before.
// (A vector written anew by another model drops the replacement itself:
// embeddings/store/set_*_embeddings.)
// Params: $label (string), $agent_id (string), $model (string).
// Returns: swapped (int: the vectors put in use).
CYPHER 25
MATCH (n:$($label) {agent_id: $agent_id})
WHERE n.embedding_next_model = $model
WITH n, coalesce(n.embedding_model, '') <> $model AS stale
CALL (n, stale) {
  WITH n WHERE stale
  CALL db.create.setNodeVectorProperty(n, 'embedding', toFloatList(n.embedding_next))
  SET n.embedding_model = $model
}
REMOVE n.embedding_next, n.embedding_next_model
RETURN sum(CASE WHEN stale THEN 1 ELSE 0 END) AS swapped
