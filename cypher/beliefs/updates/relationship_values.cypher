// The relationship value and trust of each named person: the source weight of their evidence
// (docs/memory.md §2, docs/beliefs.md §4).
// Params: $agent_id (string), $person_ids (list of strings).
// Returns: id (string), relationship_value (float), trust (float: 0.5 when never set), one row
//          per person found.
UNWIND $person_ids AS person_id
MATCH (p:Person {agent_id: $agent_id, id: person_id})
RETURN p.id AS id, coalesce(p.relationship_value, 0.0) AS relationship_value,
       coalesce(p.trust, 0.5) AS trust
