// An immutable (creed) belief reached the revision threshold: instead of revising it, asks a
// human. One pending approval per belief: an existing one is returned, not duplicated.
// Params: $agent_id (string), $approval (map: id, belief_id, payload (JSON string),
//         proposed_statement (string)).
// Returns: id (string), status (string), created (boolean).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (b:Belief {agent_id: $agent_id, id: $approval.belief_id})
OPTIONAL MATCH (existing:Approval {agent_id: $agent_id, kind: 'revision', status: 'pending',
                                  belief_id: b.id})
CALL (b, existing) {
  WITH b, existing WHERE existing IS NULL
  CREATE (a:Approval {id: $approval.id, agent_id: $agent_id, kind: 'revision',
                      status: 'pending', belief_id: b.id, payload: $approval.payload,
                      proposed_statement: $approval.proposed_statement, created_at: datetime($now)})
  CREATE (a)-[:CONCERNS]->(b)
  RETURN a
  UNION
  WITH existing WHERE existing IS NOT NULL
  RETURN existing AS a
}
RETURN a.id AS id, a.status AS status, existing IS NULL AS created,
       a.proposed_statement AS proposed_statement
