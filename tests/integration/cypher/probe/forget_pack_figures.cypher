// Takes pack_statement and pack_importance off an agent's pack beliefs, as beliefs loaded before
// the loader recorded them were stored (the V0035 test).
// Params: $agent_id (string).
// Returns: forgotten (int: the beliefs).
MATCH (:KnowledgePack {agent_id: $agent_id})-[:PROVIDES]->(b:Belief)
REMOVE b.pack_statement, b.pack_importance
RETURN count(b) AS forgotten
