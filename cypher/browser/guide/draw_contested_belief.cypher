// Guide, "The most contested belief", drawn: that belief, the beliefs it CONTRADICTS (either
// way), the people it was LEARNED_FROM, and the evidence that CHALLENGES or REINFORCES it or a
// belief it contradicts, with who gave it: the why of both sides (at most 30 paths).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one path per contradiction or piece of evidence: path :: PATH
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active
WITH b,
     COUNT { (b)-[c:CONTRADICTS]-(o:Belief) WHERE c.status = 'open' AND o.is_active } AS open,
     COUNT { (:Evidence)-[:CHALLENGES]->(b) } AS challenges
WHERE open > 0 OR b.tension > 0 OR challenges > 0
WITH b ORDER BY open DESC, b.tension DESC, challenges DESC, b.id LIMIT 1
CALL (b) {
  MATCH path = (b)-[:CONTRADICTS]-(:Belief)
  RETURN path
  UNION
  MATCH path = (b)-[:LEARNED_FROM]->(:Person)
  RETURN path
  UNION
  MATCH path = (:Person)<-[:FROM]-(:Evidence)-[:CHALLENGES|REINFORCES]->(b)
  RETURN path
  UNION
  MATCH (b)-[:CONTRADICTS]-(other:Belief)
  MATCH path = (:Person)<-[:FROM]-(:Evidence)-[:CHALLENGES|REINFORCES]->(other)
  RETURN path
}
RETURN path
LIMIT 30
