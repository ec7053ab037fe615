// Active beliefs at or above a tension level, optionally among given ids, most tense first.
// Params: $agent_id (string), $ids (list of strings or null: null = all), $min_tension (float).
// Returns: id (string), tension (float), is_immutable (boolean), one row per belief.
MATCH (b:Belief {agent_id: $agent_id, is_active: true})
WHERE b.tension >= $min_tension AND ($ids IS NULL OR b.id IN $ids)
RETURN b.id AS id, b.tension AS tension, b.is_immutable AS is_immutable
ORDER BY b.tension DESC, b.id
