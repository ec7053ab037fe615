// Records an introspection on the agent: its knowledge gaps (merged by the service under the
// agent's lock), the goals it suggests now (replacing the last ones) and when it ran.
// Params: $agent_id (string), $gaps (list of strings), $goals (list of strings), $now (datetime).
// Returns: knowledge_gaps (list of strings), suggested_goals (list of strings). No row for an
//          unknown agent.
MATCH (a:Agent {id: $agent_id})
SET a.knowledge_gaps = $gaps,
    a.suggested_goals = $goals,
    a.last_introspection_at = $now
RETURN a.knowledge_gaps AS knowledge_gaps, a.suggested_goals AS suggested_goals
