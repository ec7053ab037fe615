// Test probe: a scheduler job's node.
// Params: $key (string).
// Returns: job (map of its properties). No row when the job never was claimed.
MATCH (j:ScheduledJob {key: $key})
RETURN properties(j) AS job
