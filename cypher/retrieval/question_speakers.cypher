// The names a question says that are speakers of the agent's episodes (app/retrieval/
// asked_people.py): a :Subject name (app/text/entities.py) that some episode said by that
// person mentions (its speaker's MENTIONS edge), compared without case.
// Params: $agent_id (string), $keys (list of strings: the question's name keys, "name:<name>").
// Returns: key (string), one row per key that is a speaker.
UNWIND $keys AS key
MATCH (s:Subject {id: $agent_id + '|' + key})
  WHERE EXISTS {
    MATCH (s)<-[:MENTIONS]-(e:Episode)
      WHERE e.speaker_key = substring(key, 5)
  }
RETURN DISTINCT key
