// The agent's active tools as a turn offers them to the reasoner (a message routed to a tool).
// Params: $agent_id (string), $embedding_model (string: the running model; a vector another
//         model made is returned as null).
// Returns one record, rows: a list of maps by qualified name (one record, not one per row:
//          GraphClient.read_collected), each with qualified_name (string), description (string
//          or null), input_schema (string: JSON), embedding (list of floats or null: the vector
//          of "<tool>: <description>").
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool)
WHERE t.is_active
WITH t ORDER BY t.qualified_name
RETURN collect({
  qualified_name: t.qualified_name, description: t.description, input_schema: t.input_schema,
  embedding: CASE WHEN t.embedding_model = $embedding_model THEN t.embedding END
}) AS rows
