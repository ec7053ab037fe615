// A belief's latest derivation from its supporters (its newest 'cascade' event): when, why, the
// strength it gave, the supporters it counted as the event recorded them (strength then, edge
// weight, heaviest first, at most the first 50; their statements now), and whether the belief's
// default strength is still that result (no later event of its own moved it).
// Params: $agent_id (string), $belief_id (string).
// Returns: no row when no cascade ever derived it; else seq (int), at (datetime),
//          cause (string or null), old_strength (float), strength (float),
//          supporter_count (int or null: null on an event written before events recorded their
//          inputs), weighted_sum (float or null), weight_sum (float or null),
//          supporters (list of {id, statement (string or null), strength, weight}),
//          current (boolean).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
MATCH (e:BeliefEvent {kind: 'cascade'})-[:OF]->(b)
WITH b, e ORDER BY e.seq DESC LIMIT 1
OPTIONAL MATCH (later:BeliefEvent)-[:OF]->(b)
  WHERE later.seq > e.seq AND later.context IS NULL AND later.new_strength <> later.old_strength
WITH e, count(later) = 0 AS current
WITH e, current, coalesce(e.supporter_ids, []) AS ids
CALL (e, ids) {
  UNWIND range(0, size(ids) - 1) AS i
  OPTIONAL MATCH (s:Belief {agent_id: $agent_id, id: ids[i]})
  WITH e, ids, i, s ORDER BY i
  RETURN collect({id: ids[i], strength: e.supporter_strengths[i],
                  weight: e.supporter_weights[i], statement: s.statement}) AS supporters
}
RETURN e.seq AS seq, e.at AS at, e.note AS cause, e.old_strength AS old_strength,
       e.new_strength AS strength, e.supporter_count AS supporter_count,
       e.weighted_sum AS weighted_sum, e.weight_sum AS weight_sum, supporters, current
