// What the reasoner needs to revise a belief: the belief, its evidence for and against (strongest
// and newest first), its 1–2-hop neighbours, and the recent episodes about it.
// Params: $agent_id (string), $belief_id (string), $limit (int: per list).
// Returns: belief (map), against (list of {text, weight, at, source_person}), supporting (list),
//          neighbours (list of {id, statement, strength, tension, relation, hops}),
//          episodes (list of {id, text, occurred_at}). No row if unknown.
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
CALL (b) {
  OPTIONAL MATCH (ev:Evidence)-[:CHALLENGES]->(b)
  WITH ev ORDER BY ev.weight DESC, ev.at DESC LIMIT $limit
  RETURN collect(ev {.text, .weight, .at, .source_person}) AS against
}
CALL (b) {
  OPTIONAL MATCH (ev:Evidence)-[:REINFORCES]->(b)
  WITH ev ORDER BY ev.weight DESC, ev.at DESC LIMIT $limit
  RETURN collect(ev {.text, .weight, .at, .source_person}) AS supporting
}
CALL (b) {
  OPTIONAL MATCH path = (b)-[rels:SUPPORTS|CONTRADICTS]-{1,2}(x:Belief)
  WHERE x <> b AND x.is_active
  WITH x, min(length(path)) AS hops, head(collect(type(last(relationships(path))))) AS relation
  ORDER BY hops, x.tension DESC LIMIT $limit
  RETURN collect(CASE WHEN x IS NULL THEN null ELSE
                 {id: x.id, statement: x.statement, strength: x.strength, tension: x.tension,
                  relation: relation, hops: hops} END) AS neighbours
}
CALL (b) {
  OPTIONAL MATCH (e:Episode)-[:ABOUT]->(b)
  WITH e ORDER BY e.occurred_at DESC LIMIT $limit
  RETURN collect(e {.id, .text, .occurred_at}) AS episodes
}
RETURN b {.*, embedding: null} AS belief, against, supporting, neighbours, episodes
