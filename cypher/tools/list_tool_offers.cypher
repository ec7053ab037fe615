// The agent's active tools as a turn offers them to the reasoner (a message routed to a tool).
// Params: $agent_id (string), $embedding_model (string: the running model; a vector another
//         model made is returned as null).
// Returns: qualified_name (string), description (string or null), input_schema (string: JSON),
// embedding (list of floats or null: the vector of "<tool>: <description>"); by qualified name.
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool)
WHERE t.is_active
RETURN t.qualified_name AS qualified_name, t.description AS description,
       t.input_schema AS input_schema, CASE WHEN t.embedding_model = $embedding_model THEN t.embedding END AS embedding
ORDER BY t.qualified_name
