// The names of an agent's people (to find them mentioned in a text): each person's name, and
// each of their aliases (the names of people merged into them or given by hand, docs/memory.md
// §2, as written: alias_names, or the alias_keys of an alias stored before names were kept) as
// a name of theirs.
// Params: $agent_id (string).
// Returns: people (list of {id, name}). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  UNWIND [p.name] + coalesce(p.alias_names, p.alias_keys, []) AS name
  RETURN collect({id: p.id, name: name}) AS people
}
RETURN people
