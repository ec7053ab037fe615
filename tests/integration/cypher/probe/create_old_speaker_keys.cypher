// Episodes and people keyed as code before V0034 keyed them (white space kept in the key), for
// the V0034 test; the V0035 tests give it people and episodes of the shapes they mend. Creates
// the agent too.
// Params: $agent_id (string), $now (datetime),
//         $episodes (list of maps: id, speaker, speaker_key),
//         $people (list of maps: id, name, name_key, created_at (datetime)).
// Returns: created (int: the episodes and people created).
CREATE (:Agent {id: $agent_id, name: 'Keyed'})
WITH 1 AS go
UNWIND $episodes AS row
CREATE (:Episode {agent_id: $agent_id, id: row.id, speaker: row.speaker,
                  speaker_key: row.speaker_key, occurred_at: datetime($now)})
WITH count(*) AS episodes
UNWIND $people AS row
CREATE (:Person {agent_id: $agent_id, id: row.id, name: row.name, name_key: row.name_key,
                 created_at: row.created_at})
WITH episodes, count(*) AS people
RETURN episodes + people AS created
