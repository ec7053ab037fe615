// What an agent's pack beliefs record of what their pack gave them (the V0035 test).
// Params: $agent_id (string).
// Returns: key, statement, pack_statement, importance, pack_importance, ordered by key.
MATCH (:KnowledgePack {agent_id: $agent_id})-[:PROVIDES]->(b:Belief)
WHERE b.is_active
RETURN b.pack_key AS key, b.statement AS statement, b.pack_statement AS pack_statement,
       b.importance AS importance, b.pack_importance AS pack_importance
ORDER BY key
