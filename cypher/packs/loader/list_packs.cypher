// The packs loaded into an agent, with how many of their beliefs are still active.
// Params: $agent_id (string).
// Returns: pack (map), beliefs (int: active provided beliefs), superseded (int).
MATCH (k:KnowledgePack {agent_id: $agent_id})
CALL (k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(b:Belief)
  RETURN count(CASE WHEN b.is_active THEN 1 END) AS beliefs,
         count(CASE WHEN NOT b.is_active THEN 1 END) AS superseded
}
RETURN properties(k) AS pack, beliefs, superseded
ORDER BY k.name
