// Creates a rule, sets its embedding when given (else marks it embedding_pending) and links it
// to the episodes it came from.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $now (datetime),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id),
//         $rule (map: id, trigger_concept, content, source, confidence (float),
//         embedding (list of 384 floats or null), derived_from (list of episode ids),
//         lexical_terms (list of strings), token_count (int): the words the lexical search
//         scores its content by, app/text/lexical.py scored_words).
// Returns: id (string), linked (list of the episode ids found and linked).
MATCH (agent:Agent {id: $agent_id})
CREATE (r:Rule {id: $rule.id, agent_id: $agent_id})
SET r.trigger_concept = $rule.trigger_concept,
    r.content = $rule.content,
    r.lexical_terms = $rule.lexical_terms,
    r.token_count = $rule.token_count,
    r.source = $rule.source,
    r.confidence = toFloat($rule.confidence),
    r.validation_count = 0,
    r.is_active = true,
    r.created_at = $now,
    // Without a vector now, app/embeddings/store.py embeds it later.
    r.embedding_pending = CASE WHEN $rule.embedding IS NULL THEN true END
WITH r
CALL (r) {
  WITH r WHERE $rule.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(r, 'embedding', $rule.embedding)
  SET r.embedding_model = $embedding_model
}
CALL (r) {
  UNWIND $rule.derived_from AS episode_id
  MATCH (e:Episode {agent_id: $agent_id, id: episode_id})
  MERGE (r)-[:DERIVED_FROM]->(e)
  RETURN collect(e.id) AS linked
}
RETURN r.id AS id, linked
