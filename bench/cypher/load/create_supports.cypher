// Bench only: bulk-creates one batch of SUPPORTS edges between beliefs of one agent (the
// generator guarantees a hierarchy, so no cycle check).
// Params: $agent_id (string), $edges (list of maps: source_id, target_id, weight float in (0, 1]).
// Returns: created (int).
UNWIND $edges AS edge
MATCH (s:Belief {agent_id: $agent_id, id: edge.source_id})
MATCH (t:Belief {agent_id: $agent_id, id: edge.target_id})
CREATE (s)-[r:SUPPORTS {weight: toFloat(edge.weight), created_at: datetime()}]->(t)
RETURN count(r) AS created
