// A bounded view of an agent's belief graph for a viewer: the most important (then most tense)
// beliefs, and the SUPPORTS / CONTRADICTS / SUPERSEDED_BY edges among them.
// Params: $agent_id (string), $limit (int: most nodes), $include_inactive (boolean).
// Returns: nodes (list of {id, statement, category, strength, tension, importance, is_active,
//          is_core, is_immutable}), edges (list of {source, target, type, weight, strength,
//          status}).
MATCH (b:Belief {agent_id: $agent_id})
WHERE $include_inactive OR b.is_active
WITH b ORDER BY b.is_active DESC, b.importance DESC, b.tension DESC, b.id LIMIT $limit
WITH collect(b) AS beliefs
CALL (beliefs) {
  UNWIND beliefs AS b
  MATCH (b)-[r:SUPPORTS|CONTRADICTS|SUPERSEDED_BY]->(o:Belief)
  WHERE o IN beliefs
  RETURN collect({source: b.id, target: o.id, type: type(r), weight: r.weight,
                  strength: r.strength, status: r.status}) AS edges
}
RETURN [b IN beliefs | b {.id, .statement, .category, .strength, .tension, .importance,
                          .is_active, .is_core, .is_immutable}] AS nodes, edges
