// Which of the given episodes are still unconsolidated and non-trivial (re-checked under the
// agent's lock, so two concurrent reflections never consolidate the same episode twice).
// Params: $agent_id (string), $episode_ids (list of strings).
// Returns: id (string), one row per episode still open.
UNWIND $episode_ids AS episode_id
MATCH (e:Episode {id: episode_id})
WHERE e.agent_id = $agent_id AND e.consolidated = false AND e.trivial = false
RETURN e.id AS id
