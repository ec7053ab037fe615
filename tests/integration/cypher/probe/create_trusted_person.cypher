// Test setup: a person whose evidence weighs its full confidence (relationship value 1.0), so a
// scenario's tension arithmetic stays round. Real people get their value from the formula.
// Params: $agent_id (string), $id (string), $person_name (string).
// Returns: id (string).
CREATE (p:Person {id: $id, agent_id: $agent_id, name: $person_name, name_key: toLower($person_name),
                  relationship_value: 1.0, authority: 1.0, birth_source: 'api'})
RETURN p.id AS id
