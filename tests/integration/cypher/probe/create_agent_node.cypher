// Test setup: creates an Agent node. Params: $id (string). Returns: id (string).
CREATE (a:Agent {id: $id, agent_id: $id, name: 'test'})
RETURN a.id AS id
