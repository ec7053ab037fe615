// Removes a connection; its tools stay as history (inactive, no longer usable), with the beliefs
// about them and the actions that called them. Call graph/agent_scope/lock_agent first.
// Params: $agent_id (string), $connection (string: its name), $now (datetime).
// Returns: deleted (bool). No row when the agent has no connection of that name.
MATCH (c:Connection {agent_id: $agent_id, name: $connection})
OPTIONAL MATCH (c)-[:OFFERS]->(t:Tool)
OPTIONAL MATCH (:Agent {id: $agent_id})-[use:CAN_USE]->(t)
SET t.is_active = false, t.updated_at = $now
DELETE use
WITH DISTINCT c
DETACH DELETE c
RETURN true AS deleted
