// Reflection ran for the agent (inside its writing transaction, app/memory/reflection.py, under the
// agent lock): the count of episodes since then starts again, whoever asked for it.
// Params: $agent_id (string).
// Returns: reflected_at (datetime).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
SET agent.episodes_since_reflection = 0, agent.reflected_at = datetime($now)
RETURN agent.reflected_at AS reflected_at
