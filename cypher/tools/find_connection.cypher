// One connection of an agent, with what reaching its server needs (secret names, not values).
// Params: $agent_id (string), $connection (string: its name).
// Returns: connection (map of the Connection's properties), tools (int: its active tools).
// No row when the agent has no connection of that name.
MATCH (c:Connection {agent_id: $agent_id, name: $connection})
RETURN properties(c) AS connection, COUNT { (c)-[:OFFERS]->(:Tool {is_active: true}) } AS tools
