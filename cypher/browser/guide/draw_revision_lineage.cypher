// Guide, "A belief revised", drawn: the most recent revision, the belief it REVISED, the one it
// PRODUCED (SUPERSEDED_BY between them), and the challenging evidence with the people it came
// from (at most 30 paths).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns paths: path :: PATH
MATCH (r:Revision {agent_id: $agent_id})-[:REVISED]->(old:Belief)
WITH r, old ORDER BY r.at DESC, r.id LIMIT 1
CALL (r, old) {
  MATCH path = (r)-[:REVISED]->(old)-[:SUPERSEDED_BY]->(:Belief)<-[:PRODUCED]-(r)
  RETURN path
  UNION
  MATCH path = (:Person)<-[:FROM]-(:Evidence)-[:CHALLENGES]->(old)
  RETURN path
}
RETURN path
LIMIT 30
