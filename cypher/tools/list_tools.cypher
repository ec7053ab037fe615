// The active tools of one connection (or of every connection: $connection null), with the
// strength of the agent's belief about each and how its calls went.
// Params: $agent_id (string), $connection (string or null).
// Returns: tool (map of the Tool's properties without its embedding), belief_strength (float or
// null), successes (int), failures (int); by qualified name.
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool)
WHERE t.is_active AND ($connection IS NULL OR t.connection = $connection)
OPTIONAL MATCH (b:Belief {agent_id: $agent_id, id: t.belief_id})
RETURN t {.*, embedding: null} AS tool, b.strength AS belief_strength,
       COUNT { (a:Action)-[:CALLED]->(t) WHERE a.status = 'succeeded' } AS successes,
       COUNT { (a:Action)-[:CALLED]->(t) WHERE a.status = 'failed' } AS failures
ORDER BY t.qualified_name
