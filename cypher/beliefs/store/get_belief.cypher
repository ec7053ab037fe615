// Reads one belief with its context strengths and its strength in one context (with back-off).
// Params: $agent_id (string), $belief_id (string), $context_chain (list of strings: the
//         context, then its fallbacks, most specific first; empty for the default strength).
// Returns: belief (map of properties without the embedding), contexts (list of {name, strength}),
//          strength_in_context (float: HOLDS_IN for the context, else for its nearest WITHIN
//          ancestor, else the default strength). No row if unknown.
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
CALL (b) {
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c:Context)
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE {name: c.name, strength: h.strength} END)
         AS contexts
}
CALL (b) {
  UNWIND range(0, size($context_chain) - 1) AS position
  OPTIONAL MATCH chain = (:Context {agent_id: $agent_id, name: $context_chain[position]})
                         -[:WITHIN*0..]->(c:Context)
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c)
  WITH position, length(chain) AS distance, h ORDER BY position, distance
  WITH collect(h.strength) AS found
  RETURN CASE WHEN size(found) > 0 THEN found[0] ELSE null END AS contextual
}
RETURN b {.*, embedding: null} AS belief, contexts,
       coalesce(contextual, b.strength) AS strength_in_context
