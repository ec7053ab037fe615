// What the start-up warm-up asks its context of (app/retrieval/warm_up.py): agent $agent_id,
// or when null the agent of some episode that has a speaker (any agent when none has one), and
// up to two of that agent's speakers (the most frequent among its first 500 such episodes), so
// that the warm-up's questions can name people the way a user's do. Reads a handful of nodes
// whatever the graph's size.
// Params: $agent_id (string or null).
// Returns: one row: agent_id (string, or null when there is no agent), speakers (list of
//          strings, most frequent first).
CYPHER 25
OPTIONAL CALL () {
  MATCH (e:Episode)
    WHERE e.speaker IS NOT NULL
  RETURN e.agent_id AS spoken
  LIMIT 1
}
OPTIONAL CALL () {
  MATCH (a:Agent)
  RETURN a.id AS any_agent
  LIMIT 1
}
WITH coalesce($agent_id, spoken, any_agent) AS agent_id
OPTIONAL CALL (agent_id) {
  MATCH (e:Episode {agent_id: agent_id})
    WHERE e.speaker IS NOT NULL
  WITH e.speaker AS speaker
  LIMIT 500
  WITH speaker, count(*) AS turns
  ORDER BY turns DESC, speaker
  LIMIT 2
  RETURN collect(speaker) AS speakers
}
RETURN agent_id, coalesce(speakers, []) AS speakers
