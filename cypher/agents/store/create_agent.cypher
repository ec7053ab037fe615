// Creates an agent: the root of one mind's subgraph.
// Params: $agent (map: id string, name string, identity_goal string or null,
//         terminal_creed list of strings, birth_source string, industry string or null).
// Returns: agent (map of the Agent's properties).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CREATE (a:Agent {id: $agent.id, agent_id: $agent.id})
SET a.name = $agent.name,
    a.identity_goal = $agent.identity_goal,
    a.terminal_creed = $agent.terminal_creed,
    a.birth_source = $agent.birth_source,
    a.industry = $agent.industry,
    a.event_seq = 0,
    a.high_dissatisfaction_streak = 0,
    // Running sums for dissatisfaction (see beliefs/dissatisfaction/compute_dissatisfaction.cypher).
    a.d_imp = 0.0, a.d_imp_deg = 0.0, a.d_t_imp = 0.0, a.d_t_imp_deg = 0.0, a.d_max_degree = 0,
    a.created_at = datetime($now)
RETURN properties(a) AS agent
