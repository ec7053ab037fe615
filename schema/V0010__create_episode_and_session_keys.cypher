// Episode import is idempotent on (agent_id, external_id): a uniqueness constraint keeps MERGE
// from creating twins under concurrency (episodes without an external_id are not constrained).
// The range index of V0002 on the same properties makes way for the constraint's own index.
DROP INDEX episode_agent_external_id IF EXISTS;
CREATE CONSTRAINT episode_agent_external_id_unique IF NOT EXISTS
FOR (n:Episode) REQUIRE (n.agent_id, n.external_id) IS UNIQUE;
// One Session per (agent, key): a conversation log names its sessions.
CREATE CONSTRAINT session_agent_key_unique IF NOT EXISTS
FOR (n:Session) REQUIRE (n.agent_id, n.key) IS UNIQUE;
// Episodes are read per agent in time order (recent episodes, session ends).
CREATE INDEX episode_agent_occurred_at IF NOT EXISTS FOR (n:Episode) ON (n.agent_id, n.occurred_at);
