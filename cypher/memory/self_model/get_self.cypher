// Reads an agent's self view: identity, capabilities, knowledge gaps and self-beliefs.
// Params: $agent_id (string), $self_domain (string: the belief domain of self-beliefs, 'self').
// Returns: identity (map: id, name, identity_goal, terminal_creed, birth_source, created_at),
//          capabilities (list of maps, by domain), knowledge_gaps (list of strings or null),
//          suggested_goals (list of strings or null: the last introspection's),
//          last_introspection_at (datetime or null),
//          self_beliefs (list of maps, most important first). No row for an unknown agent.
MATCH (a:Agent {id: $agent_id})
CALL (a) {
  MATCH (a)-[:HAS_CAPABILITY]->(c:Capability)
  WITH c ORDER BY c.domain
  RETURN collect(c {.id, .domain, .proficiency, .experience_count, .success_rate,
                    .last_refined}) AS capabilities
}
CALL (a) {
  MATCH (b:Belief {agent_id: a.id, is_active: true})
  WHERE b.domain = $self_domain
  WITH b ORDER BY b.importance DESC, b.strength DESC, b.id
  RETURN collect(b {.id, .statement, .category, .strength, .tension, .importance,
                    .is_immutable}) AS self_beliefs
}
RETURN a {.id, .name, .identity_goal, .terminal_creed, .birth_source, .created_at} AS identity,
       capabilities, a.knowledge_gaps AS knowledge_gaps, self_beliefs,
       a.suggested_goals AS suggested_goals, a.last_introspection_at AS last_introspection_at
