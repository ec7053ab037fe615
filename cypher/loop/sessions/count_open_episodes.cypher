// How many episodes the agent wrote since its last reflection ran (a counter on the Agent node,
// kept by memory/episodes/create_episodes and reset by memory/reflection/mark_reflected): constant time, however
// many unconsolidated episodes the agent holds.
// Params: $agent_id (string).
// Returns: open (int).
MATCH (agent:Agent {id: $agent_id})
RETURN coalesce(agent.episodes_since_reflection, 0) AS open
