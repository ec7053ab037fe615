// Records the end of a job's run and frees its lease, when the lease is still the runner's (a
// run that outlived its lease and was claimed by another process records nothing).
// Params: $key (string), $owner (string), $run (map: started_at (datetime), outcome (string: ok,
//         failed, timed_out, skipped), duration_ms (float), detail (string)).
// Returns: key (string), runs (int): no row when the lease was lost.
MATCH (j:ScheduledJob {key: $key})
WHERE j.lease_owner = $owner
SET j.last_run_at = $run.started_at,
    j.last_outcome = $run.outcome,
    j.last_duration_ms = $run.duration_ms,
    j.last_detail = $run.detail,
    j.last_owner = $owner,
    j.runs = coalesce(j.runs, 0) + 1,
    j.lease_owner = null,
    j.lease_until = null
RETURN j.key AS key, j.runs AS runs
