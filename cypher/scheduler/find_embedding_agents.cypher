// Agents with beliefs or rules waiting for a vector (embedding_pending) whose embedding job is
// due and free; each agent's are sought by the (agent_id, embedding_pending) indexes. An agent
// being deleted is left out (its lock refuses the vectors: the job would embed nothing).
// Params: $job (string), $now (datetime), $due_before (datetime), $agent_ids (list of strings:
//         only these; empty: every agent), $limit (int).
// Returns: agent_id (string).
MATCH (a:Agent)
WHERE ($agent_ids = [] OR a.id IN $agent_ids)
  AND a.deleting IS NULL
  AND (EXISTS { MATCH (:Belief {agent_id: a.id, embedding_pending: true}) }
       OR EXISTS { MATCH (:Rule {agent_id: a.id, embedding_pending: true}) })
  AND NOT EXISTS {
    MATCH (j:ScheduledJob {key: $job + ':' + a.id})
    WHERE j.last_run_at > $due_before OR j.lease_until > $now
  }
RETURN a.id AS agent_id
ORDER BY a.id
LIMIT $limit
