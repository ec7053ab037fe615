// Credence as an MCP client (app/tools): the servers connected to an agent (:Connection), the
// tools they offer (:Tool, linked to the agent and to the belief it holds about each) and every
// call of one (:Action). Schema only.
CREATE CONSTRAINT connection_id_unique IF NOT EXISTS FOR (n:Connection) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT tool_id_unique IF NOT EXISTS FOR (n:Tool) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT action_id_unique IF NOT EXISTS FOR (n:Action) REQUIRE n.id IS UNIQUE;
// A connection's name is unique per agent; a tool is merged on (agent_id, qualified_name), so a
// connection removed and added again finds its tools, and the beliefs about them, again.
CREATE CONSTRAINT connection_agent_name_unique IF NOT EXISTS
FOR (n:Connection) REQUIRE (n.agent_id, n.name) IS UNIQUE;
CREATE CONSTRAINT tool_agent_qualified_name_unique IF NOT EXISTS
FOR (n:Tool) REQUIRE (n.agent_id, n.qualified_name) IS UNIQUE;
// GET /actions reads the agent's actions newest first; an approval finds its action.
CREATE INDEX action_agent_created_at IF NOT EXISTS FOR (n:Action) ON (n.agent_id, n.created_at);
CREATE INDEX action_agent_approval IF NOT EXISTS FOR (n:Action) ON (n.agent_id, n.approval_id);
