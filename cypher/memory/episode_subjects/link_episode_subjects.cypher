// Links new episodes to what they are about (app/memory/episode_subjects.py): each subject
// (a name or a topic, app/text/entities.py) is merged once per call as the agent's :Subject,
// counts the episodes given for it, and gets a MENTIONS edge from each of them; a topic's edge
// keeps the word's form in that episode (surface: "approvals" for the stem "approv"). The
// caller holds the agent's lock and passes only episodes that mention no subject yet (new
// episodes, or stored ones without edges), each once per subject, so the edges are created,
// not merged.
// Params: $agent_id (string),
//         $subjects (list of maps: key (string), kind ('name' | 'topic'),
//                    episodes (list of maps: id (the episode mentioning it), surface (string,
//                    or null for a name))).
// Returns: links (int: MENTIONS edges written).
UNWIND $subjects AS subject
MERGE (n:Subject {id: $agent_id + '|' + subject.key})
  ON CREATE SET n.agent_id = $agent_id, n.key = subject.key, n.kind = subject.kind, n.episodes = 0
SET n.episodes = n.episodes + size(subject.episodes)
WITH n, subject
UNWIND subject.episodes AS mention
MATCH (e:Episode {id: mention.id})
  WHERE e.agent_id = $agent_id
CREATE (e)-[m:MENTIONS]->(n)
SET m.surface = mention.surface
RETURN count(*) AS links
