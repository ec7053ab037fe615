// The agent's open contradictions between active beliefs, one row per pair.
// Params: $agent_id (string).
// Returns: source (string), target (string): the two statements, in a stable order.
MATCH (a:Belief {agent_id: $agent_id})-[c:CONTRADICTS]->(b:Belief {agent_id: $agent_id})
WHERE c.status = 'open' AND a.is_active AND b.is_active
RETURN a.statement AS source, b.statement AS target
ORDER BY source, target
