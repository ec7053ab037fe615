// Agents with a chat session left open past the idle timeout (last active before $before) whose
// idle-session job is due and free. Each agent's sessions are sought by its agent id (index
// session_agent_id), so the read costs the open sessions, not every episode.
// An agent being deleted is left out (its lock refuses the job's writes).
// Params: $before (datetime), $job (string: the job's name), $now (datetime),
//         $due_before (datetime), $agent_ids (list of strings: only these; empty: every agent),
//         $limit (int).
// Returns: agent_id (string).
MATCH (a:Agent)
WHERE ($agent_ids = [] OR a.id IN $agent_ids)
  AND a.deleting IS NULL
  AND EXISTS {
    MATCH (s:Session {agent_id: a.id})
    WHERE s.closed_at IS NULL AND s.last_active < $before
  }
  AND NOT EXISTS {
    MATCH (j:ScheduledJob {key: $job + ':' + a.id})
    WHERE j.last_run_at > $due_before OR j.lease_until > $now
  }
RETURN a.id AS agent_id
ORDER BY a.id
LIMIT $limit
