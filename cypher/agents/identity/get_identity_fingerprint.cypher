// What changes when an agent's identity document would change, read cheaply: every belief
// change bumps the agent's event_seq (strengths, revisions, new beliefs), active rules are
// counted with the newest one's time (a rule a pack version retired is left out), and the name,
// goal and knowledge gaps are read as they are.
// Params: $agent_id (string).
// Returns: event_seq (int or null), name, identity_goal, knowledge_gaps, rules (int),
//          newest_rule (datetime or null), capabilities (list of maps: domain, proficiency,
//          experience_count, success_rate, by domain: a capability given without an outcome
//          yet, so without last_refined, changes it too).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  OPTIONAL MATCH (r:Rule {agent_id: $agent_id})
    WHERE coalesce(r.is_active, true)
  RETURN count(r) AS rules, max(r.created_at) AS newest_rule
}
CALL (agent) {
  OPTIONAL MATCH (agent)-[:HAS_CAPABILITY]->(c:Capability)
  WITH c ORDER BY c.domain
  RETURN collect(c {.domain, .proficiency, .experience_count, .success_rate}) AS capabilities
}
RETURN agent.event_seq AS event_seq, agent.name AS name, agent.identity_goal AS identity_goal,
       agent.knowledge_gaps AS knowledge_gaps, rules, newest_rule, capabilities
