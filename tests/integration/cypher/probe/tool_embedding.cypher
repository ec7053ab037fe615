// Test probe: the vector in use of one agent's tool, with the model that made it.
// Params: $agent_id (string), $qualified_name (string: connection.tool).
// Returns: model (string or null), embedding (list of floats or null), next_model (string or null).
MATCH (t:Tool {agent_id: $agent_id, qualified_name: $qualified_name})
RETURN t.embedding_model AS model, toFloatList(t.embedding) AS embedding,
       t.embedding_next_model AS next_model
