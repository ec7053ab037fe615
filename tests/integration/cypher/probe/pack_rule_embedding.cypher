// Test probe: the vector in use of one agent's pack rule, with the model that made it.
// Params: $agent_id (string), $pack_name (string), $key (string: the rule's pack key).
// Returns: model (string or null), embedding (list of floats or null), next_model (string or null).
MATCH (r:Rule {agent_id: $agent_id, pack_name: $pack_name, pack_key: $key})
RETURN r.embedding_model AS model, toFloatList(r.embedding) AS embedding,
       r.embedding_next_model AS next_model
