// The creed a high-risk action is audited against: the agent's terminal creed, then the
// statements of its active ethical core beliefs (strongest first; index
// belief_agent_category_core keeps this a look-up however many beliefs the agent has).
// Params: $agent_id (string).
// Returns: terminal_creed (list of strings), ethical_core (list of strings).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  OPTIONAL MATCH (b:Belief)
    WHERE b.agent_id = agent.id AND b.category = 'ethical' AND b.is_core = true
      AND coalesce(b.is_active, true)
  WITH b ORDER BY b.strength DESC, b.statement
  RETURN collect(b.statement) AS ethical_core
}
RETURN coalesce(agent.terminal_creed, []) AS terminal_creed, ethical_core
