// The beliefs to revise together with one at the threshold: itself, then connected active
// beliefs (SUPPORTS either way, CONTRADICTS) whose own tension is at the threshold too, reached
// through such beliefs, up to $max_depth hops. Each comes with its depth and the belief it was
// reached from (for CASCADED_FROM).
// Params: $agent_id (string), $belief_id (string), $threshold (float), $max_depth (int 0..3).
// Returns: plan (list of {id, depth, parent_id (null for the first)}, shallowest first).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
OPTIONAL MATCH path = (b)-[:SUPPORTS|CONTRADICTS]-{1,3}(x:Belief)
WHERE length(path) <= $max_depth
  AND all(n IN nodes(path) WHERE n.is_active AND n.tension >= $threshold)
WITH b, x, path ORDER BY length(path)
WITH b, x, head(collect(path)) AS shortest
WITH b, collect(CASE WHEN x IS NULL OR x = b THEN null ELSE
                {id: x.id, depth: length(shortest),
                 parent_id: nodes(shortest)[length(shortest) - 1].id} END) AS others
RETURN [{id: b.id, depth: 0, parent_id: null}] + others AS plan
