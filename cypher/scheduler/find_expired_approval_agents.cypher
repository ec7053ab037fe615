// Agents with an approval past its expiry still pending (or resuming under a claim older than
// the lease: its process died), or a task still awaiting input on an expired approval, whose
// approval-expiry job is due and free; each agent's are sought by the (agent_id, status) and
// (agent_id, state) indexes.
// An agent being deleted is left out (its lock refuses the job's writes).
// Params: $job (string), $now (datetime), $due_before (datetime), $agent_ids (list of strings:
//         only these; empty: every agent), $limit (int), $lease_s (int: seconds an approval's
//         claim holds).
// Returns: agent_id (string).
MATCH (a:Agent)
WHERE ($agent_ids = [] OR a.id IN $agent_ids)
  AND a.deleting IS NULL
  AND (EXISTS {
         MATCH (p:Approval {agent_id: a.id, status: 'pending'})
         WHERE p.expires_at < $now
       }
       OR EXISTS {
         MATCH (r:Approval {agent_id: a.id, status: 'resuming'})
         WHERE r.expires_at < $now AND r.claimed_at < $now - duration({seconds: $lease_s})
       }
       OR EXISTS {
         MATCH (t:Task {agent_id: a.id, state: 'awaiting_input'})
         WHERE EXISTS { MATCH (:Approval {agent_id: a.id, id: t.approval_id, status: 'expired'}) }
       })
  AND NOT EXISTS {
    MATCH (j:ScheduledJob {key: $job + ':' + a.id})
    WHERE j.last_run_at > $due_before OR j.lease_until > $now
  }
RETURN a.id AS agent_id
ORDER BY a.id
LIMIT $limit
