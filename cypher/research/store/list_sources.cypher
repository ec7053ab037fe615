// The sources an investigation found, in the order they were found (their citation numbers).
// Params: $agent_id (string), $investigation_id (string).
// Returns: source (map of properties), hypothesis_ids (list of strings: the hypotheses whose
//          search found it).
MATCH (:Investigation {agent_id: $agent_id, id: $investigation_id})-[:FOUND]->(s:Source)
OPTIONAL MATCH (s)-[:FOUND_FOR]->(h:Hypothesis)
WITH s, collect(h.id) AS hypothesis_ids
RETURN properties(s) AS source, hypothesis_ids
ORDER BY s.number
