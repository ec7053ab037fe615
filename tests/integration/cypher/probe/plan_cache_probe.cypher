// A query for the plan-cache test (tests/integration/graph/test_plan_cache.py), found in db.stats'
// query statistics by its marker: its parameters filter agents, as a request's do.
// Params: $words (string), $names (list of strings).
// Returns: marker (string), agents (int: agents with the id $words or one of $names).
MATCH (a:Agent)
  WHERE a.id = $words OR a.id IN $names
WITH count(a) AS agents
RETURN 'plan-cache probe' AS marker, agents
