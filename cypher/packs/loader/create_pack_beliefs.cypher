// Creates a batch of a pack's beliefs with their 'pack' creation events (sequence numbers
// reserved by packs/loader/upsert_pack), context strengths (HOLDS_IN, WITHIN back-off chain) and the
// PROVIDES edge from the pack. Vectors are stored when given; otherwise the belief is marked
// embedding_pending. The dissatisfaction sums are recomputed once after the whole load.
// Params: $agent_id (string), $pack_name (string), $m (map: mechanics),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id),
//         $rows (list of maps: id, key, statement, category, domain, strength, prior_strength
//         (the pack's own figure; strength may be lower by the birth policy), importance,
//         is_core, is_immutable, source ('pack' or 'birth'), seq, embedding (float32 VECTOR or null), contexts (list of {name, strength}),
//         context_parents (list of {child, parent}), lexical_terms (list of strings),
//         token_count (int): the words the lexical search scores it by,
//         app/text/lexical.py scored_words).
// Returns: created (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
UNWIND $rows AS row
CREATE (b:Belief {id: row.id, agent_id: $agent_id})
SET b.statement = row.statement,
    b.lexical_terms = row.lexical_terms,
    b.token_count = row.token_count,
    b.category = row.category,
    b.domain = row.domain,
    b.strength = toFloat(row.strength),
    b.prior_strength = toFloat(row.prior_strength),
    b.tension = 0.0,
    b.importance = toFloat(row.importance),
    b.is_core = row.is_core,
    b.is_immutable = row.is_immutable,
    b.is_active = true,
    b.is_distrusted = false,
    b.is_invalidated = row.strength < $m.thresholds[row.category] - $m.invalidation_tolerance,
    b.reinforcement_count = 0,
    b.degree = 0,
    b.source = row.source,
    b.pack_name = $pack_name,
    b.pack_key = row.key,
    b.created_at = datetime($now)
CREATE (k)-[:PROVIDES]->(b)
CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'pack',
                      action: 'created', seq: row.seq, new_strength: b.strength,
                      new_tension: 0.0, at: datetime($now),
                      context_names: [c IN row.contexts | c.name],
                      context_strengths: [c IN row.contexts | toFloat(c.strength)]})-[:OF]->(b)
WITH b, row
CALL (b, row) {
  WITH b, row WHERE row.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(b, 'embedding', toFloatList(row.embedding))
  SET b.embedding_model = $embedding_model
}
CALL (b, row) {
  WITH b, row WHERE row.embedding IS NULL
  SET b.embedding_pending = true
}
CALL (b, row) {
  UNWIND row.context_parents AS link
  MERGE (child:Context {agent_id: $agent_id, name: link.child})
    ON CREATE SET child.id = randomUUID()
  MERGE (parent:Context {agent_id: $agent_id, name: link.parent})
    ON CREATE SET parent.id = randomUUID()
  MERGE (child)-[:WITHIN]->(parent)
}
CALL (b, row) {
  UNWIND row.contexts AS ctx
  MERGE (c:Context {agent_id: $agent_id, name: ctx.name})
    ON CREATE SET c.id = randomUUID()
  CREATE (b)-[h:HOLDS_IN]->(c)
  SET h.strength = toFloat(ctx.strength)
}
RETURN count(*) AS created
