// Claims, for one process, the jobs of $claims that are due and free: a job's node (one per job
// kind, and agent for per-agent jobs) is created on first claim; its write lock is taken before
// its lease is read (the first SET), so two processes claiming the same job at once are
// serialised and only the first succeeds; a job is due when it never ran or last ran at or before
// $due_before, and free when it has no lease or its lease ended at or before $now.
// Params: $claims (list of maps: key (string), job (string), agent_id (string or null); sorted
//         by key, so that two processes lock in the same order), $owner (string: the claiming
//         scheduler), $now (datetime), $due_before (datetime), $lease_until (datetime).
// Returns: key (string), agent_id (string or null): one row per job claimed.
UNWIND $claims AS claim
MERGE (j:ScheduledJob {key: claim.key})
  ON CREATE SET j.job = claim.job, j.agent_id = claim.agent_id, j.runs = 0, j.created_at = $now
SET j.claim_tried_at = $now
WITH j
WHERE (j.lease_until IS NULL OR j.lease_until <= $now)
  AND (j.last_run_at IS NULL OR j.last_run_at <= $due_before)
SET j.lease_owner = $owner, j.lease_until = $lease_until, j.claimed_at = $now
RETURN j.key AS key, j.agent_id AS agent_id
