// The people present in a turn: those named (the speaker, the people the message names) and
// those the turn's context recalled, with what shapes the appraisal (authority, relationship
// value, affect).
// Params: $agent_id (string), $name_keys (list of strings: app.memory.people.name_key),
//         $ids (list of person ids), $limit (int).
// Returns: id, name, name_key, role (string or null), authority, relationship_value,
//          affect_valence, affect_stress (floats or null).
MATCH (p:Person {agent_id: $agent_id})
WHERE p.name_key IN $name_keys OR p.id IN $ids
RETURN p.id AS id, p.name AS name, p.name_key AS name_key, p.role AS role,
       p.authority AS authority, p.relationship_value AS relationship_value,
       p.affect_valence AS affect_valence, p.affect_stress AS affect_stress
ORDER BY coalesce(p.relationship_value, 0.0) DESC, p.name
LIMIT $limit
