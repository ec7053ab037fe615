// The topics of a person's turns: the topic subjects (app/text/entities.py) their latest
// episodes mention, each with how many of those episodes mention it and when last, most recent
// first (docs/memory.md §2), shown by the word's most frequent form in those episodes.
// Params: $agent_id (string), $person_id (string), $episodes (int: the latest episodes
//         counted), $limit (int: topics returned).
// Returns: topic (string: the form of the word most of those episodes use, the shortest then
//          the first alphabetically on a tie; the stem for episodes linked before forms were
//          kept), stem (string: the subject's key without its "topic:" prefix), count (int),
//          last_at (datetime); one row per topic, none for a person without episodes.
MATCH (p:Person {agent_id: $agent_id, id: $person_id})<-[:WITH]-(e:Episode)
WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
LIMIT $episodes
MATCH (e)-[m:MENTIONS]->(s:Subject {kind: 'topic'})
WITH s, count(e) AS count, max(e.occurred_at) AS last_at, collect(m.surface) AS surfaces
ORDER BY last_at DESC, count DESC, s.key
LIMIT $limit
CALL (surfaces) {
  UNWIND CASE WHEN surfaces = [] THEN [null] ELSE surfaces END AS surface
  WITH surface, count(*) AS uses
  ORDER BY uses DESC, size(surface), surface
  LIMIT 1
  RETURN surface
}
RETURN coalesce(surface, substring(s.key, 6)) AS topic, substring(s.key, 6) AS stem, count,
       last_at
ORDER BY last_at DESC, count DESC, s.key
