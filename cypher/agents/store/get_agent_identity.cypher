// The agent's identity as a turn needs it (name, identity goal, terminal creed), without the
// counts of agents/store/get_agent (which read every belief).
// Params: $agent_id (string).
// Returns: agent (map: id, name, identity_goal, terminal_creed). No row if unknown.
MATCH (a:Agent {id: $agent_id})
RETURN a {.id, .name, .identity_goal, .terminal_creed} AS agent
