// The given beliefs that are active and at or above a tension level, most tense first (found by
// id: the candidates a write just touched).
// Params: $agent_id (string), $ids (list of strings), $min_tension (float).
// Returns: id (string), tension (float), is_immutable (boolean), one row per belief.
UNWIND $ids AS belief_id
MATCH (b:Belief {id: belief_id})
WHERE b.agent_id = $agent_id AND b.is_active AND b.tension >= $min_tension
RETURN b.id AS id, b.tension AS tension, b.is_immutable AS is_immutable
ORDER BY b.tension DESC, b.id
