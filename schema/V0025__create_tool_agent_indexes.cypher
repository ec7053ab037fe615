// The agent_id range index every agent-scoped label carries (app/graph/models.py AgentScoped),
// for the labels of V0024: deleting an agent finds its connections, tools and actions by it.
CREATE INDEX connection_agent_id IF NOT EXISTS FOR (n:Connection) ON (n.agent_id);
CREATE INDEX tool_agent_id IF NOT EXISTS FOR (n:Tool) ON (n.agent_id);
CREATE INDEX action_agent_id IF NOT EXISTS FOR (n:Action) ON (n.agent_id);
