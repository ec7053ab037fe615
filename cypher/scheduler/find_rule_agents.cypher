// Agents with at least one active rule whose rule-decay job is due and free.
// An agent being deleted is left out (its lock refuses the job's writes).
// Params: $job (string), $now (datetime), $due_before (datetime), $agent_ids (list of strings:
//         only these; empty: every agent), $limit (int).
// Returns: agent_id (string).
MATCH (a:Agent)
WHERE ($agent_ids = [] OR a.id IN $agent_ids)
  AND a.deleting IS NULL
  AND EXISTS { MATCH (r:Rule {agent_id: a.id}) WHERE coalesce(r.is_active, true) }
  AND NOT EXISTS {
    MATCH (j:ScheduledJob {key: $job + ':' + a.id})
    WHERE j.last_run_at > $due_before OR j.lease_until > $now
  }
RETURN a.id AS agent_id
ORDER BY a.id
LIMIT $limit
