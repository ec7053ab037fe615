// Dissatisfaction D = Σ tension·w / Σ w over the agent's active beliefs, with
// w = importance · (0.5 + 0.5 · degree / max_degree) and degree = SUPPORTS and CONTRADICTS edges
// to other active beliefs. Also the $top largest contributors (share = tension·w / Σ w).
// Params: $agent_id (string), $top (int).
// Returns: value (float), beliefs (int), contributors (list of {id, statement, tension,
//          importance, degree, weight, share}, largest share first).
MATCH (b:Belief {agent_id: $agent_id, is_active: true})
WITH b, COUNT { (b)-[:SUPPORTS|CONTRADICTS]-(o:Belief) WHERE o.is_active } AS degree
WITH collect({b: b, degree: degree}) AS rows, max(degree) AS max_degree
WITH rows, max_degree,
     [row IN rows | {b: row.b, degree: row.degree,
                     weight: row.b.importance * (0.5 + CASE WHEN max_degree > 0
                             THEN 0.5 * toFloat(row.degree) / max_degree ELSE 0.0 END)}] AS weighted
WITH weighted, reduce(total = 0.0, row IN weighted | total + row.weight) AS total
WITH weighted, total,
     CASE WHEN total > 0
          THEN reduce(sum = 0.0, row IN weighted | sum + row.b.tension * row.weight) / total
          ELSE 0.0 END AS value
CALL (weighted, total) {
  UNWIND weighted AS row
  WITH row WHERE row.b.tension > 0 AND total > 0
  WITH row, row.b.tension * row.weight / total AS share
  ORDER BY share DESC, row.b.id
  LIMIT $top
  RETURN collect({id: row.b.id, statement: row.b.statement, tension: row.b.tension,
                  importance: row.b.importance, degree: row.degree, weight: row.weight,
                  share: share}) AS contributors
}
RETURN value, size(weighted) AS beliefs, contributors
