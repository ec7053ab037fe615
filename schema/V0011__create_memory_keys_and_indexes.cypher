// People, frames, working memory and capabilities (app/memory/). Schema only.
// Frames are merged on (agent_id, key), capabilities on (agent_id, domain) and entities on
// (agent_id, name_key): uniqueness constraints keep MERGE from making twins under concurrency.
// The range index of V0002 on Frame (agent_id, key) makes way for the constraint's own index.
DROP INDEX frame_agent_key IF EXISTS;
CREATE CONSTRAINT frame_agent_key_unique IF NOT EXISTS
FOR (n:Frame) REQUIRE (n.agent_id, n.key) IS UNIQUE;
CREATE CONSTRAINT capability_agent_domain_unique IF NOT EXISTS
FOR (n:Capability) REQUIRE (n.agent_id, n.domain) IS UNIQUE;
CREATE CONSTRAINT entity_agent_name_key_unique IF NOT EXISTS
FOR (n:Entity) REQUIRE (n.agent_id, n.name_key) IS UNIQUE;
// Case-insensitive person look-ups (micro-birth, mentions) seek (agent_id, name_key); two people
// may share a name, so this is an index, not a constraint. Recent people come from last_seen.
CREATE INDEX person_agent_name_key IF NOT EXISTS FOR (n:Person) ON (n.agent_id, n.name_key);
CREATE INDEX person_agent_last_seen IF NOT EXISTS FOR (n:Person) ON (n.agent_id, n.last_seen);
// Working memory reads active tasks, unexpired notes and recently mentioned entities.
CREATE INDEX task_agent_state IF NOT EXISTS FOR (n:Task) ON (n.agent_id, n.state);
CREATE INDEX note_agent_expires_at IF NOT EXISTS FOR (n:Note) ON (n.agent_id, n.expires_at);
CREATE INDEX entity_agent_last_seen IF NOT EXISTS FOR (n:Entity) ON (n.agent_id, n.last_seen);
