// Agents with episodes waiting for reflection (the counter on the Agent node) whose reflection
// job is due and free: at least $every of them, or at least $minimum when the agent has gone
// quiet (no open session last active at or after $active_after), the most waiting first.
// An agent being deleted is left out (its lock refuses the job's writes).
// Params: $minimum (int), $every (int), $active_after (datetime), $job (string), $now (datetime),
//         $due_before (datetime), $agent_ids (list of strings: only these; empty: every agent),
//         $limit (int).
// Returns: agent_id (string).
MATCH (a:Agent)
WHERE coalesce(a.episodes_since_reflection, 0) >= $minimum
  AND ($agent_ids = [] OR a.id IN $agent_ids)
  AND a.deleting IS NULL
  AND (a.episodes_since_reflection >= $every
       OR NOT EXISTS {
         MATCH (s:Session {agent_id: a.id})
         WHERE s.closed_at IS NULL AND s.last_active >= $active_after
       })
  AND NOT EXISTS {
    MATCH (j:ScheduledJob {key: $job + ':' + a.id})
    WHERE j.last_run_at > $due_before OR j.lease_until > $now
  }
RETURN a.id AS agent_id
ORDER BY a.episodes_since_reflection DESC, a.id
LIMIT $limit
