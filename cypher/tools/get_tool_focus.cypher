// What a turn that calls a tool routes on: the tool, the agent's belief about it and how many of
// its calls succeeded, counted up to $successes_cap (beliefs/contexts/get_context_strengths gives
// the belief's strength in the context).
// Params: $agent_id (string), $qualified_name (string), $successes_cap (int: the destructive
//         cap asks for no more; the count stays one look-up however many calls the tool had).
// Returns: tool (map: qualified_name, description, read_only, destructive: what supervision
// reads), belief (map: id, statement, category, strength, tension, supervision_mode (string or
// null: the mode pinned on the belief; null: derived); null when it has none, or
// it is inactive and no revision of it is active), successes (int, at most $successes_cap).
// No row: no such active tool.
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool {agent_id: $agent_id,
                                                 qualified_name: $qualified_name})
WHERE t.is_active
CALL (t) {
  // The belief as it holds now: a revised one is SUPERSEDED_BY its revision.
  OPTIONAL MATCH (:Belief {agent_id: $agent_id, id: t.belief_id})-[:SUPERSEDED_BY*0..]->(b:Belief)
  WHERE b.is_active
  RETURN b
  LIMIT 1
}
CALL (t) {
  OPTIONAL MATCH (a:Action)-[:CALLED]->(t)
  WHERE a.status = 'succeeded'
  WITH a LIMIT $successes_cap
  RETURN count(a) AS successes
}
RETURN t {.qualified_name, .description, .read_only, .destructive} AS tool,
       CASE WHEN b IS NULL THEN null ELSE {
         id: b.id, statement: b.statement, category: b.category, strength: b.strength,
         tension: b.tension, supervision_mode: b.supervision_mode
       } END AS belief,
       successes
