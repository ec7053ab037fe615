// Tense beliefs of one agent (dissatisfaction contributors, revision candidates) are found
// through (agent_id, tension) instead of scanning the agent's beliefs.
CREATE INDEX belief_agent_tension IF NOT EXISTS FOR (n:Belief) ON (n.agent_id, n.tension);
