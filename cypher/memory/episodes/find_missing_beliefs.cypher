// Which of the belief ids an import links to (ABOUT) are not beliefs of the agent.
// Params: $agent_id (string), $belief_ids (list of strings).
// Returns: belief_id (string), one row per missing id.
UNWIND $belief_ids AS belief_id
OPTIONAL MATCH (b:Belief {id: belief_id, agent_id: $agent_id})
WITH belief_id, b
WHERE b IS NULL
RETURN belief_id
