// The scheduler's jobs of one agent (index scheduled_job_agent_id) and the jobs of the whole
// process ($process_jobs: their keys are their names), with their last run and lease.
// Params: $agent_id (string), $process_jobs (list of strings: the names of the jobs that are
//         not per agent).
// Returns: job (map: key, job, agent_id, last_run_at, last_outcome, last_duration_ms,
//          last_detail, last_owner, runs, lease_owner, lease_until), ordered by job name.
CALL () {
  MATCH (j:ScheduledJob {agent_id: $agent_id})
  RETURN j
  UNION
  MATCH (j:ScheduledJob)
  WHERE j.key IN $process_jobs
  RETURN j
}
RETURN j {.key, .job, .agent_id, .last_run_at, .last_outcome, .last_duration_ms, .last_detail,
          .last_owner, .runs, .lease_owner, .lease_until} AS job
ORDER BY j.job
