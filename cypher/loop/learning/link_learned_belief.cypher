// Links a belief learned in conversation to where it came from: (b)-[:LEARNED_FROM]->(episode)
// and (episode)-[:ABOUT]->(b), (b)-[:LEARNED_FROM]->(person) when a person taught it; records
// the kind of learning and the person's name on the belief.
// Params: $agent_id (string), $belief_id (string), $kind (string: guidance/correction/novel),
//         $episode_id (string), $person_id (string or null), $person_name (string or null).
// Returns: id (string), people (int: persons linked).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
SET b.learned_kind = $kind,
    b.source_person = $person_name
MERGE (b)-[:LEARNED_FROM]->(e)
MERGE (e)-[:ABOUT]->(b)
WITH b
OPTIONAL MATCH (p:Person {agent_id: $agent_id, id: $person_id})
FOREACH (person IN CASE WHEN p IS NULL THEN [] ELSE [p] END |
  MERGE (b)-[:LEARNED_FROM]->(person))
RETURN b.id AS id, count(p) AS people
