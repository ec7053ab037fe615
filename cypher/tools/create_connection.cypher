// Creates a connection and merges the tools its server lists: each (re)activated, linked to the
// connection, to the agent (CAN_USE) and to the agent's belief about it (ABOUT_TOOL). Call
// graph/agent_scope/lock_agent first in the same transaction; the beliefs exist already.
// Params: $agent_id (string), $now (datetime),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id),
//         $connection (map: id, name, transport, command, args (list), cwd, url,
//         env_names (list), header_names (list)),
//         $tools (list of maps: id, qualified_name, name, description, input_schema (JSON
//         string), read_only (bool), destructive (bool), idempotent (bool), embedding (list of
//         floats or null), belief_id (string), search_source (bool: research searches it)).
// Returns: tools (int: the tools merged).
MATCH (agent:Agent {id: $agent_id})
CREATE (c:Connection {id: $connection.id, agent_id: $agent_id})
SET c.name = $connection.name,
    c.transport = $connection.transport,
    c.command = $connection.command,
    c.args = $connection.args,
    c.cwd = $connection.cwd,
    c.url = $connection.url,
    c.env_names = $connection.env_names,
    c.header_names = $connection.header_names,
    c.created_at = $now
CREATE (agent)-[:HAS_CONNECTION]->(c)
WITH agent, c
CALL (agent, c) {
  UNWIND $tools AS tool
  MERGE (t:Tool {agent_id: $agent_id, qualified_name: tool.qualified_name})
    ON CREATE SET t.id = tool.id, t.created_at = $now
  SET t.name = tool.name,
      t.connection = $connection.name,
      t.description = tool.description,
      t.input_schema = tool.input_schema,
      t.read_only = tool.read_only,
      t.destructive = tool.destructive,
      t.idempotent = tool.idempotent,
      t.embedding = tool.embedding,
      t.embedding_model = CASE WHEN tool.embedding IS NULL THEN null ELSE $embedding_model END,
      t.belief_id = tool.belief_id,
      t.search_source = tool.search_source,
      t.is_active = true,
      t.updated_at = $now
  // A replacement a reindex stored embeds what the tool said before: never put in use.
  REMOVE t.embedding_next, t.embedding_next_model
  MERGE (c)-[:OFFERS]->(t)
  MERGE (agent)-[:CAN_USE]->(t)
  WITH t, tool
  MATCH (b:Belief {agent_id: $agent_id, id: tool.belief_id})
  MERGE (b)-[:ABOUT_TOOL]->(t)
  RETURN count(t) AS tools
}
RETURN tools
