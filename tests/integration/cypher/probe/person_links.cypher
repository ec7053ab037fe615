// What points at an agent's people (the person deletion and merger tests).
// Params: $agent_id (string).
// Returns: person (string: the person's name), episodes (list of the external ids of the
//          episodes WITH them, sorted), speaker_keys (their speaker_key, in the same order),
//          ordered by person.
MATCH (p:Person {agent_id: $agent_id})
OPTIONAL MATCH (e:Episode)-[:WITH]->(p)
WITH p, e ORDER BY e.external_id
RETURN p.name AS person, collect(e.external_id) AS episodes, collect(e.speaker_key) AS speaker_keys
ORDER BY person
