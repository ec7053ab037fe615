// The story of one belief: its evidence, its events and its supersession lineage.
// Params: $agent_id (string), $belief_id (string), $limit (int: newest evidence/events kept).
// Returns: evidence (list of maps, newest first), events (list of maps, newest first),
//          predecessors (list of {id, statement, revision_id}: oldest first),
//          successors (list of {id, statement, revision_id}: nearest first),
//          supports (list of {id, statement, weight}: beliefs this one supports),
//          supported_by (list of {id, statement, weight}),
//          contradictions (list of {id, statement, strength, status, resolution, direction}).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
CALL (b) {
  OPTIONAL MATCH (ev:Evidence)-[:REINFORCES|CHALLENGES]->(b)
  WITH ev ORDER BY ev.at DESC LIMIT $limit
  RETURN collect(properties(ev)) AS evidence
}
CALL (b) {
  OPTIONAL MATCH (e:BeliefEvent {agent_id: $agent_id, belief_id: b.id})
  WITH e ORDER BY e.seq DESC LIMIT $limit
  RETURN collect(properties(e)) AS events
}
CALL (b) {
  OPTIONAL MATCH path = (old:Belief)-[:SUPERSEDED_BY*1..]->(b)
  WITH old, length(path) AS distance ORDER BY distance DESC
  OPTIONAL MATCH (r:Revision)-[:REVISED]->(old)
  RETURN collect(CASE WHEN old IS NULL THEN null
                 ELSE {id: old.id, statement: old.statement, revision_id: r.id} END) AS predecessors
}
CALL (b) {
  OPTIONAL MATCH path = (b)-[:SUPERSEDED_BY*1..]->(new:Belief)
  WITH new, length(path) AS distance ORDER BY distance
  OPTIONAL MATCH (r:Revision)-[:PRODUCED]->(new)
  RETURN collect(CASE WHEN new IS NULL THEN null
                 ELSE {id: new.id, statement: new.statement, revision_id: r.id} END) AS successors
}
CALL (b) {
  OPTIONAL MATCH (b)-[s:SUPPORTS]->(x:Belief)
  RETURN collect(CASE WHEN x IS NULL THEN null
                 ELSE {id: x.id, statement: x.statement, weight: s.weight} END) AS supports
}
CALL (b) {
  OPTIONAL MATCH (x:Belief)-[s:SUPPORTS]->(b)
  RETURN collect(CASE WHEN x IS NULL THEN null
                 ELSE {id: x.id, statement: x.statement, weight: s.weight} END) AS supported_by
}
CALL (b) {
  OPTIONAL MATCH (b)-[c:CONTRADICTS]-(x:Belief)
  RETURN collect(CASE WHEN x IS NULL THEN null
                 ELSE {id: x.id, statement: x.statement, strength: c.strength, status: c.status,
                       resolution: c.resolution,
                       direction: CASE WHEN startNode(c) = b THEN 'outgoing' ELSE 'incoming' END}
                 END) AS contradictions
}
RETURN evidence, events, predecessors, successors, supports, supported_by, contradictions
