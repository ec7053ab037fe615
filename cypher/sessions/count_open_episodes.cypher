// How many of the agent's episodes reflection could still consolidate (unconsolidated and
// non-trivial); seeks the index episode_agent_reflection (schema/V0017).
// Params: $agent_id (string).
// Returns: open (int).
MATCH (e:Episode)
  USING INDEX e:Episode(agent_id, consolidated, trivial, occurred_at)
WHERE e.agent_id = $agent_id AND e.consolidated = false AND e.trivial = false
  AND e.occurred_at IS NOT NULL
RETURN count(e) AS open
