// Test probe: an agent's reporting lines (enrichment at birth).
// Params: $agent_id (string).
// Returns: one row per REPORTS_TO edge: person (string, name), manager (string, name),
//          source (string), sorted by person.
MATCH (p:Person {agent_id: $agent_id})-[r:REPORTS_TO]->(m:Person {agent_id: $agent_id})
RETURN p.name AS person, m.name AS manager, r.source AS source
ORDER BY person, manager
