// The terms of both dissatisfaction formulas for one agent: each active belief's tension,
// importance and degree (SUPPORTS and CONTRADICTS edges to other active beliefs, as the running
// sums count them).
// Params: $agent_id (string).
// Returns: tension (float), importance (float), degree (int), one row per active belief.
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active
RETURN coalesce(b.tension, 0.0) AS tension, coalesce(b.importance, 0.5) AS importance,
       coalesce(b.degree, 0) AS degree
