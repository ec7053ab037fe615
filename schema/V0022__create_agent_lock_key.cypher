// The agent's write lock lives on its own node (:AgentLock {of_agent}), which nothing but
// agents/lock_agent and agents/lock_agent_for_deletion writes: locking the Agent node itself, which
// the same transactions write again (event_seq, the dissatisfaction sums), let concurrent writers
// deadlock on Neo4j's NODE / NODE_RELATIONSHIP_GROUP_DELETE lock pair (issue 14). Lock nodes are
// created on first use (MERGE under this constraint), so no backfill is needed.
CREATE CONSTRAINT agent_lock_key IF NOT EXISTS
FOR (l:AgentLock) REQUIRE l.of_agent IS UNIQUE;
