// The agent's connections by name.
// Params: $agent_id (string).
// Returns: connection (map of properties), tools (int: its active tools); one row per connection.
MATCH (c:Connection {agent_id: $agent_id})
RETURN properties(c) AS connection, COUNT { (c)-[:OFFERS]->(:Tool {is_active: true}) } AS tools
ORDER BY c.name
