// What an agent holds of a pack: its KnowledgePack node and the active beliefs it provides.
// Params: $agent_id (string), $pack_name (string).
// Returns: pack (map or null), beliefs (list of maps: id, key, statement, strength, tension).
OPTIONAL MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
CALL (k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(b:Belief)
  WHERE b.is_active
  RETURN collect(b {.id, key: b.pack_key, .statement, .strength, .tension}) AS beliefs
}
RETURN CASE WHEN k IS NULL THEN null ELSE properties(k) END AS pack, beliefs
