// Probe: an agent's topic subjects and the episode count each keeps (the V0032 test).
// Params: $agent_id (string).
// Returns: key (string), episodes (int), ordered by key.
MATCH (s:Subject {agent_id: $agent_id, kind: 'topic'})
RETURN s.key AS key, s.episodes AS episodes
ORDER BY key
