// Which of the given beliefs an investigation created (a confirmed hypothesis): a later search
// must not count them as evidence, since they only restate sources already judged (circular).
// Params: $agent_id (string), $ids (list of strings: belief ids).
// Returns: id (string), one row per belief created by research.
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.id IN $ids AND EXISTS { (:Hypothesis)-[:INFORMED {effect: 'created'}]->(b) }
RETURN b.id AS id
