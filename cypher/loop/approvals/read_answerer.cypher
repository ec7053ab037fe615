// Who may answer an agent's approval: its principal, and the person who answers (by name).
// Params: $agent_id (string), $name_key (string or null: the answerer's lower-cased name,
//         whitespace collapsed).
// Returns: principal (map: id, name, name_key, authority; null for an agent born without one),
//          person (map: id, name, authority; null when nobody of the agent has that name; the
//          oldest when several do), principal_deleted (boolean: the agent had a principal and
//          that person was deleted: null principal, yet not an agent born without one).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (principal:Person {agent_id: $agent_id, id: agent.principal_id})
OPTIONAL MATCH (p:Person {agent_id: $agent_id, name_key: $name_key})
WITH agent, principal, p ORDER BY p.created_at, p.id
LIMIT 1
RETURN principal {.id, .name, .name_key, .authority} AS principal,
       p {.id, .name, .authority} AS person,
       coalesce(agent.principal_deleted, false) AS principal_deleted
