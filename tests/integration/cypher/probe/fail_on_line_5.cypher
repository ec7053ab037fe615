// Fails when Neo4j reads line 5 of this file, a function that does not exist: Neo4j's error
// names the file's line (the catalog sends comment lines empty, app/graph/catalog.py).
// Params: none. Returns: x, y.
RETURN 1 AS x,
  credence_no_such_function(2) AS y
