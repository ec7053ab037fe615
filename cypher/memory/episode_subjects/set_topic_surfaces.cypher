// Gives topic MENTIONS edges that keep no word form their episode's form of the word (the
// caller holds the agent's lock); an edge that has one keeps it.
// Params: $agent_id (string),
//         $mentions (list of maps: episode (id), key (the subject's key, "topic:<stem>"),
//                    surface (string)).
// Returns: filled (int: edges given a form).
UNWIND $mentions AS mention
MATCH (e:Episode {id: mention.episode})-[m:MENTIONS]->(:Subject {id: $agent_id + '|' + mention.key})
  WHERE e.agent_id = $agent_id AND m.surface IS NULL
SET m.surface = mention.surface
RETURN count(m) AS filled
