// Marks (or unmarks) one of the agent's active tools as a research source.
// Params: $agent_id (string), $qualified_name (string: connection.tool), $search_source (bool).
// Returns: qualified_name (string); no row when the agent has no such active tool.
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool {agent_id: $agent_id, qualified_name: $qualified_name})
WHERE t.is_active
SET t.search_source = $search_source
RETURN t.qualified_name AS qualified_name
