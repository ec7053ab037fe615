// What an agent holds of a pack: its KnowledgePack node, the active beliefs it provides, and the
// keys it provides that a person or the agent took out of the pack's hands (docs/packs.md §3):
// those whose newest provided belief is inactive without a pack version having retired it
// (deactivated by hand, or revised: its successor is not the pack's).
// Params: $agent_id (string), $pack_name (string).
// Returns: pack (map or null), beliefs (list of maps: id, key, statement, pack_statement (the
//          statement the pack last gave: the stored one for a belief loaded before it was
//          recorded), strength, tension, category, domain, importance, is_core,
//          pack_importance (the importance the pack last gave, likewise)),
//          withheld (list of maps: id, key).
OPTIONAL MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
CALL (k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(b:Belief)
  WHERE b.is_active
  RETURN collect(b {.id, key: b.pack_key, .statement,
                    pack_statement: coalesce(b.pack_statement, b.statement),
                    .strength, .tension, .category, .domain, .importance, .is_core,
                    pack_importance: coalesce(b.pack_importance, b.importance)}) AS beliefs
}
CALL (k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(b:Belief)
  WITH b ORDER BY b.created_at DESC, b.id
  WITH b.pack_key AS key, collect(b) AS provided
  WHERE key IS NOT NULL AND NOT any(x IN provided WHERE x.is_active)
    AND provided[0].retired_by_pack IS NULL
  RETURN collect({id: provided[0].id, key: key}) AS withheld
}
RETURN CASE WHEN k IS NULL THEN null ELSE properties(k) END AS pack, beliefs, withheld
