// The topics of a person's turns: the topic subjects (app/text/entities.py) their latest
// episodes mention, each with how many of those episodes mention it and when last, most recent
// first (docs/memory.md §2).
// Params: $agent_id (string), $person_id (string), $episodes (int: the latest episodes
//         counted), $limit (int: topics returned).
// Returns: topic (string: the subject's key without its "topic:" prefix, a stem), count (int),
//          last_at (datetime); one row per topic, none for a person without episodes.
MATCH (p:Person {agent_id: $agent_id, id: $person_id})<-[:WITH]-(e:Episode)
WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
LIMIT $episodes
MATCH (e)-[:MENTIONS]->(s:Subject {kind: 'topic'})
WITH s, count(e) AS count, max(e.occurred_at) AS last_at
ORDER BY last_at DESC, count DESC, s.key
LIMIT $limit
RETURN substring(s.key, 6) AS topic, count, last_at
