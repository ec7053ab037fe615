// The agent's active tools marked as research sources, with their connections (how to reach
// each server: secret names only).
// Params: $agent_id (string).
// Returns: tool (map: qualified_name, name, input_schema (JSON string)), connection (map of the
// Connection's properties); by qualified name.
MATCH (agent:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool)<-[:OFFERS]-(c:Connection)
WHERE t.is_active AND t.search_source = true
RETURN t {.qualified_name, .name, .input_schema} AS tool, c {.*} AS connection
ORDER BY t.qualified_name
