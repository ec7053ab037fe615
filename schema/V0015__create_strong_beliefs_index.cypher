// Working memory shows an agent's strongest active beliefs: this index serves them in order, so
// the read touches a handful of entries instead of every active belief of the agent.
CREATE INDEX belief_agent_active_strength IF NOT EXISTS
FOR (n:Belief) ON (n.agent_id, n.is_active, n.strength);
