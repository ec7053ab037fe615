// Finds an agent's person by case-insensitive name: the oldest of that name, if several share
// it; else, when nobody has that name, the person who holds it as an alias (alias_keys: the name
// of a person merged into them, memory/people/merge_people; docs/memory.md §2).
// Params: $agent_id (string), $name_key (string: the lower-cased name, whitespace collapsed).
// Returns: person (map of properties, or null when nobody has that name or alias).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (named:Person {agent_id: $agent_id, name_key: $name_key})
WITH named ORDER BY named.created_at, named.id
LIMIT 1
OPTIONAL CALL (named) {
  WITH named WHERE named IS NULL
  MATCH (aliased:Person {agent_id: $agent_id}) WHERE $name_key IN aliased.alias_keys
  RETURN aliased ORDER BY aliased.created_at, aliased.id LIMIT 1
}
RETURN properties(coalesce(named, aliased)) AS person
