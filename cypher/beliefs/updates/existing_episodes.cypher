// The agent's episodes among those a batch of evidence names (evidence may say which episode it
// came from; one that names no episode of the agent is refused before anything is written).
// Params: $agent_id (string), $episode_ids (list of strings, distinct).
// Returns: id (string), one row per episode found.
UNWIND $episode_ids AS episode_id
MATCH (episode:Episode {agent_id: $agent_id, id: episode_id})
RETURN episode.id AS id
