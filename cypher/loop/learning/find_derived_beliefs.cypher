// Which of the given beliefs are derived from supporters (an active belief SUPPORTS them): a
// learned belief joins their supporters; a belief without any keeps its own strength.
// Params: $agent_id (string), $ids (list of belief ids).
// Returns: id (string), one row per derived, active belief.
UNWIND $ids AS belief_id
MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
WHERE b.is_active AND EXISTS { MATCH (:Belief {is_active: true})-[:SUPPORTS]->(b) }
RETURN b.id AS id
