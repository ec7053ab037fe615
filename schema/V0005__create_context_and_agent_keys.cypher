// One Context per (agent, name), so MERGE on it cannot create twins under concurrency.
// The range index of V0002 on the same properties makes way for the constraint's own index.
DROP INDEX context_agent_name IF EXISTS;
CREATE CONSTRAINT context_agent_name_unique IF NOT EXISTS
FOR (n:Context) REQUIRE (n.agent_id, n.name) IS UNIQUE;
CREATE INDEX belief_event_belief_id IF NOT EXISTS FOR (n:BeliefEvent) ON (n.belief_id);
CREATE INDEX revision_agent_at IF NOT EXISTS FOR (n:Revision) ON (n.agent_id, n.at);
