// A pack's SUPPORTS and CONTRADICTS edges between its active beliefs (MERGE: loading again
// changes nothing). The pack validated that its SUPPORTS edges form no cycle.
// Params: $agent_id (string), $pack_name (string),
//         $supports (list of {source_id, target_id, weight}),
//         $contradicts (list of {source_id, target_id, strength}).
// Returns: supports (int), contradicts (int): edges created now.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CALL () {
  UNWIND $supports AS edge
  MATCH (s:Belief {id: edge.source_id, agent_id: $agent_id})
  MATCH (t:Belief {id: edge.target_id, agent_id: $agent_id})
  MERGE (s)-[r:SUPPORTS]->(t)
    ON CREATE SET r.weight = toFloat(edge.weight), r.pack = $pack_name, r.created_at = datetime($now),
                  r.new = true
  WITH r WHERE r.new
  REMOVE r.new
  RETURN count(r) AS supports
}
CALL () {
  UNWIND $contradicts AS edge
  MATCH (s:Belief {id: edge.source_id, agent_id: $agent_id})
  MATCH (t:Belief {id: edge.target_id, agent_id: $agent_id})
  MERGE (s)-[r:CONTRADICTS]->(t)
    ON CREATE SET r.strength = toFloat(edge.strength), r.status = 'open', r.pack = $pack_name,
                  r.created_at = datetime($now), r.new = true
  WITH r WHERE r.new
  REMOVE r.new
  RETURN count(r) AS contradicts
}
RETURN supports, contradicts
