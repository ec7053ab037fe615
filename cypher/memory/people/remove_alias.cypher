// Takes one alias (docs/memory.md §2) from a person of an agent: the name no longer means them
// (its key and its name as written go together). Call graph/agent_scope/lock_agent first in
// the same transaction.
// Params: $agent_id (string), $person_id (string), $key (string: the alias's name_key).
// Returns: person (map of the person's properties, after the write), removed (boolean: false
//          when the person had no such alias, nothing written). No row when the person is not
//          the agent's.
MATCH (p:Person {agent_id: $agent_id, id: $person_id})
WITH p, coalesce(p.alias_keys, []) AS keys, coalesce(p.alias_names, p.alias_keys, []) AS names
WITH p, $key IN keys AS removed,
     [i IN range(0, size(keys) - 1) WHERE keys[i] <> $key | [keys[i], coalesce(names[i], keys[i])]] AS kept
CALL (p, removed, kept) {
  WITH p, kept WHERE removed
  SET p.alias_keys = [pair IN kept | pair[0]], p.alias_names = [pair IN kept | pair[1]]
}
RETURN properties(p) AS person, removed
