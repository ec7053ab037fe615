// Waits until every index is ONLINE, so a migration is recorded only once its indexes serve.
// Fails with Neo.ClientError.Procedure.ProcedureCallFailed when an index is FAILED or the wait
// runs out; the runner then names those indexes (graph/migrations/list_index_states).
// Params: $timeout_s (integer, the most seconds to wait).
// Returns: no rows.
CALL db.awaitIndexes($timeout_s)
