// The names of an agent's people (to find them mentioned in a text): each person's name, and
// each of their aliases (the names of people merged into them or given by hand, docs/memory.md
// §2, as written: alias_names, or the alias_keys of an alias stored before names were kept) as
// a name of theirs, unless some person has it as their name (that person wins).
// Params: $agent_id (string).
// Returns: people (list of {id, name}). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  WITH collect(p) AS everyone
  WITH everyone, [q IN everyone | q.name_key] AS taken
  UNWIND everyone AS p
  WITH p, taken, coalesce(p.alias_keys, []) AS keys,
       coalesce(p.alias_names, p.alias_keys, []) AS written
  // An alias that is some person's name is not read as the holder's (a person who has
  // the name wins, docs/memory.md §2: a distinct "Bob" added before or after a merge).
  UNWIND [p.name] + [i IN range(0, size(keys) - 1) WHERE NOT keys[i] IN taken |
                     coalesce(written[i], keys[i])] AS name
  RETURN collect({id: p.id, name: name}) AS people
}
RETURN people
