// The plan-cache test's query statistics (db.stats 'QUERIES', collected meanwhile): each plan of
// a query whose text contains $marker, with how many times it ran.
// Params: $marker (string).
// Returns: one row per plan: invocations (int).
CALL db.stats.retrieve('QUERIES') YIELD data
WITH data
  WHERE data.query CONTAINS $marker
RETURN data.invocationSummary.invocationCount AS invocations
