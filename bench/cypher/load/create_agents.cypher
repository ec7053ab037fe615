// Bench only: creates agents with the shape of cypher/agents/store/create_agent.cypher (event_seq 0,
// so the belief services work on them).
// Params: $agents (list of maps: id, name).
// Returns: created (int).
UNWIND $agents AS agent
CREATE (a:Agent {id: agent.id, agent_id: agent.id})
SET a.name = agent.name,
    a.identity_goal = null,
    a.terminal_creed = [],
    a.birth_source = 'bench',
    a.event_seq = 0,
    a.high_dissatisfaction_streak = 0,
    a.created_at = datetime()
RETURN count(a) AS created
