// How many of an agent's active ethical beliefs are flagged invalidated.
// Params: $agent_id (string).
// Returns: invalidated (int), one row.
MATCH (b:Belief {agent_id: $agent_id, category: 'ethical'})
WHERE b.is_active
RETURN count(CASE WHEN b.is_invalidated THEN 1 END) AS invalidated
