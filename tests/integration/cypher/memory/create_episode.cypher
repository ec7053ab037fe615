// Test setup: a bare episode of an agent.
// Params: $agent_id (string), $id (string).
// Returns: id (string).
CREATE (e:Episode {id: $id, agent_id: $agent_id, text: 'setup', occurred_at: datetime()})
RETURN e.id AS id
