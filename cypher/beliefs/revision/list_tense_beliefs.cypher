// Every active belief of the agent at or above a tension level, most tense first (found through
// the (agent_id, tension) index, whatever the size of the graph).
// Params: $agent_id (string), $min_tension (float).
// Returns: id (string), tension (float), is_immutable (boolean), one row per belief.
MATCH (b:Belief)
WHERE b.agent_id = $agent_id AND b.tension >= $min_tension AND b.is_active
RETURN b.id AS id, b.tension AS tension, b.is_immutable AS is_immutable
ORDER BY b.tension DESC, b.id
