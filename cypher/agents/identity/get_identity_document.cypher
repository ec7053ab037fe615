// What an agent's identity document shows (seed 003's CLAUDE.md, generated from the graph): its
// name, goal, creed and knowledge gaps; its top capabilities; its strongest beliefs per domain
// (among the strongest active ones, read in index order); its open conflicts; its latest
// revisions and active rules (a rule a pack version retired is left out).
// Params: $agent_id (string), $capabilities (int), $gaps (int: the newest knowledge gaps shown),
//         $strongest (int: active beliefs read by
//         strength), $per_domain (int), $domains (int), $conflicts (int), $revisions (int),
//         $rules (int).
// Returns: agent (map: id, name, identity_goal, terminal_creed, event_seq),
//          knowledge_gaps (list of strings: the newest $gaps, oldest first),
//          knowledge_gaps_total (int: how many the agent has),
//          capabilities (list of maps: domain, proficiency, experience_count, success_rate),
//          beliefs (list of maps: domain, beliefs (list of maps: id, statement, strength,
//          tension, category)), conflicts (list of maps: a, b (statements), strength),
//          revisions (list of maps: id, old_statement, new_statement, mode, at),
//          rules (list of maps: id, trigger_concept, content, confidence, source),
//          conflicts_total, revisions_total, rules_total (int: how many open conflicts,
//          revisions and active rules the agent has, shown or not).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  OPTIONAL MATCH (agent)-[:HAS_CAPABILITY]->(c:Capability)
  WITH c ORDER BY coalesce(c.proficiency, 0.0) DESC, coalesce(c.experience_count, 0) DESC, c.domain
  LIMIT $capabilities
  RETURN collect(c {.domain, .proficiency, .experience_count, .success_rate}) AS capabilities
}
CALL (agent) {
  MATCH (b:Belief)
    USING INDEX b:Belief(agent_id, is_active, strength)
  WHERE b.agent_id = $agent_id AND b.is_active = true AND b.strength >= 0.0
    AND coalesce(b.is_immutable, false) = false
  WITH b ORDER BY b.strength DESC, b.id
  LIMIT $strongest
  WITH coalesce(b.domain, 'general') AS domain, b
  WITH domain, collect(b {.id, .statement, .strength, .tension, .category})[0..$per_domain]
       AS beliefs, max(b.strength) AS top
  ORDER BY top DESC, domain
  LIMIT $domains
  RETURN collect({domain: domain, beliefs: beliefs}) AS beliefs
}
CALL (agent) {
  OPTIONAL MATCH (x:Belief {agent_id: $agent_id, is_active: true})
                 -[c:CONTRADICTS {status: 'open'}]->(y:Belief {is_active: true})
  WITH x, y, c ORDER BY coalesce(x.tension, 0.0) + coalesce(y.tension, 0.0) DESC, x.id, y.id
  LIMIT $conflicts
  RETURN collect(CASE WHEN c IS NULL THEN null
                      ELSE {a: x.statement, b: y.statement, strength: c.strength} END)
         AS conflicts
}
CALL (agent) {
  OPTIONAL MATCH (r:Revision {agent_id: $agent_id})
  WITH r ORDER BY r.at DESC, r.id
  LIMIT $revisions
  RETURN collect(r {.id, .old_statement, .new_statement, .mode, .at}) AS revisions
}
CALL (agent) {
  OPTIONAL MATCH (r:Rule {agent_id: $agent_id})
    WHERE coalesce(r.is_active, true)
  WITH r ORDER BY r.created_at DESC, r.id
  LIMIT $rules
  RETURN collect(r {.id, .trigger_concept, .content, .confidence, .source}) AS rules
}
CALL (agent) {
  OPTIONAL MATCH (x:Belief {agent_id: $agent_id, is_active: true})
                 -[c:CONTRADICTS {status: 'open'}]->(:Belief {is_active: true})
  RETURN count(c) AS conflicts_total
}
CALL (agent) {
  OPTIONAL MATCH (r:Revision {agent_id: $agent_id})
  RETURN count(r) AS revisions_total
}
CALL (agent) {
  OPTIONAL MATCH (r:Rule {agent_id: $agent_id})
    WHERE coalesce(r.is_active, true)
  RETURN count(r) AS rules_total
}
WITH agent, capabilities, beliefs, conflicts, revisions, rules, conflicts_total,
     revisions_total, rules_total,
     coalesce(agent.knowledge_gaps, []) AS gaps
RETURN agent {.id, .name, .identity_goal, .terminal_creed, .event_seq} AS agent,
       gaps[-$gaps..] AS knowledge_gaps, size(gaps) AS knowledge_gaps_total,
       capabilities, beliefs, conflicts, revisions, rules, conflicts_total, revisions_total,
       rules_total
