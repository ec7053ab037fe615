// Agents with at least $minimum episodes written since their last reflection (the counter on
// the Agent node) whose reflection job is due and free, the most waiting first.
// Params: $minimum (int), $job (string), $now (datetime), $due_before (datetime),
//         $agent_ids (list of strings: only these; empty: every agent), $limit (int).
// Returns: agent_id (string).
MATCH (a:Agent)
WHERE coalesce(a.episodes_since_reflection, 0) >= $minimum
  AND ($agent_ids = [] OR a.id IN $agent_ids)
  AND NOT EXISTS {
    MATCH (j:ScheduledJob {key: $job + ':' + a.id})
    WHERE j.last_run_at > $due_before OR j.lease_until > $now
  }
RETURN a.id AS agent_id
ORDER BY a.episodes_since_reflection DESC, a.id
LIMIT $limit
