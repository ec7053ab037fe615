// Bench only: the agents benchmarks created (ids starting with 'bench-'), e.g. left by --keep.
// Params: none.
// Returns: id (string), one row per agent.
MATCH (a:Agent)
WHERE a.id STARTS WITH 'bench-'
RETURN a.id AS id
ORDER BY id
