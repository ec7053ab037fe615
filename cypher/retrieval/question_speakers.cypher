// The names a question says that are speakers of the agent's episodes (app/retrieval/
// asked_people.py): a :Subject name (app/text/entities.py) that some episode said by that
// person mentions (its speaker's MENTIONS edge), compared without case; else, when no person
// has that name, an alias of the person who said such an episode (docs/memory.md §2: after "Bob"
// is merged into Bob Jones, Bob's turns mention "bob" and are keyed "bob jones"), whose turns are
// matched by the holder's own key. The alias is sought only for a name that is a subject and
// not a speaker, among the speakers of the episodes that mention it (no scan of the people: a
// speaker, or an agent without aliases, costs what it did).
// Params: $agent_id (string), $keys (list of strings: the question's name keys, "name:<name>").
// Returns: key (string), speaker_key (string: the speaker_key of that speaker's turns: the name,
//          or the name_key of the person who holds it as an alias); one row per key that is a
//          speaker.
UNWIND $keys AS key
MATCH (s:Subject {id: $agent_id + '|' + key})
WITH key, s, substring(key, 5) AS name
WITH key, s, name,
     EXISTS { MATCH (s)<-[:MENTIONS]-(e:Episode) WHERE e.speaker_key = name } AS speaks
OPTIONAL CALL (s, name, speaks) {
  WITH s, name WHERE NOT speaks
    AND NOT EXISTS { MATCH (:Person {agent_id: $agent_id, name_key: name}) }
  MATCH (s)<-[:MENTIONS]-(e:Episode)
  WITH DISTINCT name, e.speaker_key AS said_by
  MATCH (holder:Person {agent_id: $agent_id, name_key: said_by})
    WHERE name IN holder.alias_keys
  RETURN said_by LIMIT 1
}
WITH key, CASE WHEN speaks THEN name ELSE said_by END AS speaker_key
  WHERE speaker_key IS NOT NULL
RETURN DISTINCT key, speaker_key
