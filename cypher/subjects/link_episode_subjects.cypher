// Links new episodes to what they are about (app/memory/episode_subjects.py): each subject
// (a name or a topic, app/text/entities.py) is merged as the agent's :Subject, the episode gets
// a MENTIONS edge to it and the subject counts the episode. The caller holds the agent's lock and
// passes each episode once (new episodes, or stored ones without edges yet).
// Params: $agent_id (string),
//         $links (list of maps: episode (string: episode id),
//                 subjects (list of maps: key (string), kind ('name' | 'topic'))).
// Returns: links (int: MENTIONS edges written).
UNWIND $links AS link
MATCH (e:Episode {id: link.episode})
  WHERE e.agent_id = $agent_id
UNWIND link.subjects AS subject
MERGE (n:Subject {id: $agent_id + '|' + subject.key})
  ON CREATE SET n.agent_id = $agent_id, n.key = subject.key, n.kind = subject.kind, n.episodes = 0
MERGE (e)-[m:MENTIONS]->(n)
  ON CREATE SET n.episodes = n.episodes + 1
RETURN count(m) AS links
