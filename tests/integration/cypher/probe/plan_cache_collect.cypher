// Starts collecting query statistics (db.stats 'QUERIES') afresh, for the plan-cache test.
// Params: none.
// Returns: nothing the test reads.
CALL db.stats.clear('QUERIES')
