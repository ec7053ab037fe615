// Who may answer an agent's approval: its principal, and the person who answers (by name).
// Params: $agent_id (string), $name_key (string or null: the answerer's lower-cased name,
//         whitespace collapsed).
// Returns: principal (map: id, name, name_key, authority; null for an agent born without one),
//          person (map: id, name, authority; the oldest of that name when several have it; when
//          nobody has it, the person who holds it as an alias (docs/memory.md §2); else null),
//          principal_deleted (boolean: the agent had a principal and
//          that person was deleted: null principal, yet not an agent born without one).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (principal:Person {agent_id: $agent_id, id: agent.principal_id})
OPTIONAL MATCH (named:Person {agent_id: $agent_id, name_key: $name_key})
WITH agent, principal, named ORDER BY named.created_at, named.id
LIMIT 1
OPTIONAL CALL (named) {
  WITH named WHERE named IS NULL AND $name_key IS NOT NULL
  MATCH (aliased:Person {agent_id: $agent_id}) WHERE $name_key IN aliased.alias_keys
  RETURN aliased ORDER BY aliased.created_at, aliased.id LIMIT 1
}
WITH agent, principal, coalesce(named, aliased) AS p
RETURN principal {.id, .name, .name_key, .authority} AS principal,
       p {.id, .name, .authority} AS person,
       coalesce(agent.principal_deleted, false) AS principal_deleted
