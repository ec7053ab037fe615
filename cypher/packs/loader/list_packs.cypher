// The packs loaded into an agent, with how many of their beliefs are active, superseded by a
// revision, and otherwise inactive (dropped by a version, deactivated by a person).
// Params: $agent_id (string).
// Returns: pack (map), beliefs (int: active provided beliefs), superseded (int: inactive ones a
//          revision replaced), inactive (int: the other inactive ones).
MATCH (k:KnowledgePack {agent_id: $agent_id})
CALL (k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(b:Belief)
  WITH b, b IS NOT NULL AND NOT b.is_active AND EXISTS { (b)-[:SUPERSEDED_BY]->() } AS replaced
  RETURN count(CASE WHEN b.is_active THEN 1 END) AS beliefs,
         count(CASE WHEN replaced THEN 1 END) AS superseded,
         count(CASE WHEN NOT b.is_active AND NOT replaced THEN 1 END) AS inactive
}
RETURN properties(k) AS pack, beliefs, superseded, inactive
ORDER BY k.name
