// The active tools of one connection (or of every connection: $connection null), with the
// agent's belief about each — its default strength, the strength a call of the tool routes on in
// a context (as loop/activation/get_tool_call_start reads it: the HOLDS_IN strength of the first
// context of $chain, or of its nearest WITHIN ancestor, that the active belief holds in, else its
// default strength) and every context it holds its own strength in — and how its calls went.
// Params: $agent_id (string), $connection (string or null), $chain (list of context names, most
//         specific first; may be empty: the default strength).
// The belief is the one that holds now: a revised belief is SUPERSEDED_BY its revision.
// Returns: tool (map of the Tool's properties without its embedding; belief_id: the belief that
// holds now), belief_strength (float or
// null), strength_in_context (float or null: null when the tool has no active belief, as a call
// routes on none), context_applied (string or null: the context whose HOLDS_IN strength applied),
// contexts (list of {name, strength}, by name), successes (int), failures (int); by qualified
// name.
MATCH (:Agent {id: $agent_id})-[:CAN_USE]->(t:Tool)
WHERE t.is_active AND ($connection IS NULL OR t.connection = $connection)
OPTIONAL MATCH (first:Belief {agent_id: $agent_id, id: t.belief_id})
CALL (first) {
  // The belief as it holds now: a revised one is SUPERSEDED_BY its revision.
  OPTIONAL MATCH (first)-[:SUPERSEDED_BY*0..]->(active:Belief)
  WHERE active.is_active
  RETURN active
  LIMIT 1
}
WITH t, coalesce(active, first) AS b
CALL (b) {
  UNWIND CASE WHEN b IS NULL OR NOT b.is_active THEN [] ELSE range(0, size($chain) - 1) END
         AS position
  OPTIONAL MATCH path = (:Context {agent_id: $agent_id, name: $chain[position]})
                        -[:WITHIN*0..]->(c:Context)
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c)
  WITH position, length(path) AS distance, h, c ORDER BY position, distance
  WITH collect(CASE WHEN h IS NULL THEN null ELSE {strength: h.strength, context: c.name} END)
         AS found
  RETURN CASE WHEN size(found) > 0 THEN found[0] ELSE null END AS contextual
}
CALL (b) {
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c:Context)
  WITH c, h ORDER BY c.name
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE {name: c.name, strength: h.strength} END)
         AS contexts
}
RETURN t {.*, embedding: null, belief_id: coalesce(b.id, t.belief_id)} AS tool,
       b.strength AS belief_strength,
       CASE WHEN b IS NULL OR NOT b.is_active THEN null
            ELSE coalesce(contextual.strength, b.strength) END AS strength_in_context,
       contextual.context AS context_applied,
       contexts,
       COUNT { (a:Action)-[:CALLED]->(t) WHERE a.status = 'succeeded' } AS successes,
       COUNT { (a:Action)-[:CALLED]->(t) WHERE a.status = 'failed' } AS failures
ORDER BY t.qualified_name
