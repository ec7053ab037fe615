// The coverage half of the episode search (app/retrieval/coverage.py): the agent's episodes that
// mention the question's subjects (MENTIONS edges to :Subject nodes: names and topics,
// app/text/entities.py), whichever session they are in. A subject weighs its idf over the agent's
// episodes, ln(1 + (N − n + 0.5) / (n + 0.5)) with N the agent's episodes (its lexical corpus)
// and n those that mention it; an episode's score is the weight of the question's subjects it
// mentions over the weight of all of them the agent knows.
// Params: $agent_id (string), $keys (list of strings: subject keys), $pool (int).
// Returns one record, rows: a list of maps (one record, not one per row:
//          GraphClient.read_collected), best first, at most $pool, each with id (string),
//          score (float in (0, 1]), matched (list of strings: the keys it mentions).
OPTIONAL MATCH (c:LexicalCorpus {id: $agent_id})
WITH coalesce(c.docs, 0) AS docs
UNWIND $keys AS key
MATCH (n:Subject {id: $agent_id + '|' + key})
WITH n, CASE WHEN docs > n.episodes THEN docs ELSE n.episodes END AS total
WITH n, log(1.0 + (total - n.episodes + 0.5) / (n.episodes + 0.5)) AS weight
WITH collect({n: n, weight: weight}) AS subjects, sum(weight) AS all_weight
UNWIND subjects AS subject
WITH subject.n AS n, subject.weight AS weight, all_weight
MATCH (n)<-[:MENTIONS]-(e:Episode)
WITH e, all_weight, sum(weight) AS weight, collect(n.key) AS matched
WITH e, weight / all_weight AS score, matched
ORDER BY score DESC, e.id
LIMIT $pool
RETURN collect({id: e.id, score: score, matched: matched}) AS rows
