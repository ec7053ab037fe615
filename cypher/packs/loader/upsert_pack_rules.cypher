// A pack's rules (MERGE on pack + key). A changed rule text replaces the content and needs a new
// vector; learned confidence and validation counts are kept. A rule the pack itself retired
// (packs/loader/retire_pack_rules: an earlier version dropped its key) is active again.
// Params: $agent_id (string), $pack_name (string),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id),
//         $rows (list of {key, trigger_concept, content, confidence, embedding or null,
//         lexical_terms (list of strings), token_count (int): the words the lexical search
//         scores its content by, app/text/lexical.py scored_words}).
// Returns: created (int), changed (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
UNWIND $rows AS row
MERGE (r:Rule {agent_id: $agent_id, pack_name: $pack_name, pack_key: row.key})
  ON CREATE SET r.id = randomUUID(), r.created_at = datetime($now), r.source = 'pack',
                r.confidence = toFloat(row.confidence), r.validation_count = 0, r.fresh = true,
                r.is_active = true
WITH r, row, coalesce(r.fresh, false) AS created, coalesce(r.content <> row.content, false) AS changed,
     coalesce(r.retired_by_pack, false) AS back
SET r.trigger_concept = row.trigger_concept, r.content = row.content,
    r.lexical_terms = row.lexical_terms, r.token_count = row.token_count,
    r.is_active = CASE WHEN back THEN true ELSE coalesce(r.is_active, true) END,
    r.deactivated_at = CASE WHEN back THEN null ELSE r.deactivated_at END
REMOVE r.fresh, r.retired_by_pack, r.retired_in_version
WITH r, row, created, changed
CALL (r, row, created, changed) {
  WITH r, row WHERE (created OR changed) AND row.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(r, 'embedding', toFloatList(row.embedding))
  SET r.embedding_model = $embedding_model
}
CALL (r, row, created, changed) {
  WITH r, row WHERE (created OR changed) AND row.embedding IS NULL
  SET r.embedding_pending = true
}
CALL (r, created, changed) {
  // A replacement a reindex stored embeds the content before: never put in use.
  WITH r WHERE created OR changed
  REMOVE r.embedding_next, r.embedding_next_model
}
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN changed THEN 1 ELSE 0 END) AS changed
