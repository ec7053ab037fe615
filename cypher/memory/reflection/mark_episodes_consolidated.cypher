// Marks episodes consolidated (a reflection abstracted a rule from them).
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $episode_ids (list of strings), $now (datetime).
// Returns: marked (int).
UNWIND $episode_ids AS episode_id
MATCH (e:Episode {id: episode_id})
WHERE e.agent_id = $agent_id
SET e.consolidated = true,
    e.consolidated_at = $now
RETURN count(e) AS marked
