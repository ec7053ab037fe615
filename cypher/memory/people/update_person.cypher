// Overwrites a person's stored values (the service computed them under the agent's lock; a null
// value removes the property, e.g. a cleared email).
// Params: $agent_id (string), $person_id (string),
//         $changes (map: the same keys as $person of memory/people/create_person).
// Returns: person (map of properties). No row when there is no such person.
MATCH (p:Person {agent_id: $agent_id, id: $person_id})
SET p += $changes
RETURN properties(p) AS person
