// The hypotheses an investigation tests, in the order they were proposed.
// Params: $agent_id (string), $investigation_id (string).
// Returns: hypothesis (map of properties, embedding left out).
MATCH (:Investigation {agent_id: $agent_id, id: $investigation_id})-[:TESTS]->(h:Hypothesis)
RETURN h {.*, embedding: null} AS hypothesis
ORDER BY h.ordinal
