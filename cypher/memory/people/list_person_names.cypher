// The names of an agent's people (to find them mentioned in a text).
// Params: $agent_id (string).
// Returns: people (list of {id, name}). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  RETURN collect({id: p.id, name: p.name}) AS people
}
RETURN people
