// The input schema of one of the agent's active tools: what a call's arguments are checked
// against before an approved (or modified) call runs.
// Params: $agent_id (string), $qualified_name (string: connection.tool).
// Returns: input_schema (JSON text or null). No row for a tool the agent lacks (or inactive).
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool {agent_id: $agent_id,
                                                 qualified_name: $qualified_name})
WHERE t.is_active
RETURN t.input_schema AS input_schema
LIMIT 1
