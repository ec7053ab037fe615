// Context-conditional strengths (docs/beliefs.md §2): for each belief, the HOLDS_IN strength of the first
// context of the chain (most specific first, e.g. [acme/month_end, month_end]) or of its nearest
// WITHIN ancestor that the belief holds in, else its default strength.
// Params: $agent_id (string), $ids (list of belief ids), $chain (list of context names; may be empty).
// Returns: id (string), strength (float), default_strength (float), tension (float),
//          context (string or null: the context whose HOLDS_IN strength applied),
//          supervision_mode (string or null: the mode pinned on the belief; null: derived).
UNWIND $ids AS belief_id
MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
CALL (b) {
  UNWIND range(0, size($chain) - 1) AS position
  OPTIONAL MATCH path = (:Context {agent_id: $agent_id, name: $chain[position]})
                        -[:WITHIN*0..]->(c:Context)
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c)
  WITH position, length(path) AS distance, h, c ORDER BY position, distance
  WITH collect(CASE WHEN h IS NULL THEN null ELSE {strength: h.strength, context: c.name} END)
         AS found
  RETURN CASE WHEN size(found) > 0 THEN found[0] ELSE null END AS contextual
}
RETURN b.id AS id, coalesce(contextual.strength, b.strength) AS strength,
       b.strength AS default_strength, b.tension AS tension, contextual.context AS context,
       b.supervision_mode AS supervision_mode
