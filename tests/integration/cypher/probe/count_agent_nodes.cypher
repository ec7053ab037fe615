// Probe: how many nodes an agent owns. Params: $agent_id (string). Returns: nodes (int).
MATCH (n {agent_id: $agent_id})
RETURN count(n) AS nodes
