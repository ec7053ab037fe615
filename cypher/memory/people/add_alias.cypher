// Gives a person of an agent one more name (an alias, docs/memory.md §2), unless another person
// of the agent has that name or holds it as an alias (then nothing is written and they are
// returned). Call graph/agent_scope/lock_agent first in the same transaction. A name that is
// already the person's alias, or their own name, is left as it is.
// Params: $agent_id (string), $person_id (string),
//         $alias (map: key (string: the name's name_key), name (string: as written)).
// Returns: person (map of the person's properties, after the write), holders (list of {id, name}:
//          the other people who have the name or hold it as an alias, oldest first; empty when
//          the alias was added). No row when the person is not the agent's.
MATCH (p:Person {agent_id: $agent_id, id: $person_id})
CALL (p) {
  OPTIONAL MATCH (other:Person {agent_id: $agent_id})
    WHERE other <> p AND (other.name_key = $alias.key OR $alias.key IN other.alias_keys)
  WITH other ORDER BY other.created_at, other.id
  RETURN collect(other {.id, .name}) AS holders
}
WITH p, holders, coalesce(p.alias_keys, []) AS keys,
     coalesce(p.alias_names, p.alias_keys, []) AS names
CALL (p, holders, keys, names) {
  WITH p, keys, names
    WHERE holders = [] AND NOT $alias.key IN keys AND $alias.key <> p.name_key
  SET p.alias_keys = keys + $alias.key, p.alias_names = names + $alias.name
}
RETURN properties(p) AS person, holders
