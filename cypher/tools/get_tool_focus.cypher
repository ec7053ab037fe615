// What a turn that calls a tool routes on: the tool, the agent's belief about it and how many of
// its calls succeeded (beliefs/contexts/get_context_strengths gives the belief's strength in the context).
// Params: $agent_id (string), $qualified_name (string).
// Returns: tool (map without embedding), belief (map: id, statement, category, strength,
// tension; null when it has none, or it is inactive), successes (int). No row: no such active
// tool.
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool {agent_id: $agent_id,
                                                 qualified_name: $qualified_name})
WHERE t.is_active
OPTIONAL MATCH (b:Belief {agent_id: $agent_id, id: t.belief_id})
WHERE b.is_active
RETURN t {.*, embedding: null} AS tool,
       CASE WHEN b IS NULL THEN null ELSE {
         id: b.id, statement: b.statement, category: b.category, strength: b.strength,
         tension: b.tension
       } END AS belief,
       COUNT { (a:Action)-[:CALLED]->(t) WHERE a.status = 'succeeded' } AS successes
