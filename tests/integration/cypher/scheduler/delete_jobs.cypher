// Test cleanup: the scheduler job nodes a test made (its own job names).
// Params: $keys (list of strings).
// Returns: deleted (int).
MATCH (j:ScheduledJob)
WHERE j.key IN $keys
DETACH DELETE j
RETURN count(*) AS deleted
