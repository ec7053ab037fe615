// Stores a capability's numbers after an outcome (created, with its HAS_CAPABILITY edge, when
// the agent had none in the domain). Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $domain (string), $now (datetime),
//         $state (map: proficiency float, success_rate float, experience_count int).
// Returns: capability (map: id, domain, proficiency, experience_count, success_rate,
//          last_refined).
MATCH (a:Agent {id: $agent_id})
MERGE (c:Capability {agent_id: $agent_id, domain: $domain})
  ON CREATE SET c.id = randomUUID()
MERGE (a)-[:HAS_CAPABILITY]->(c)
SET c.proficiency = toFloat($state.proficiency),
    c.success_rate = toFloat($state.success_rate),
    c.experience_count = $state.experience_count,
    c.last_refined = $now
RETURN c {.id, .domain, .proficiency, .experience_count, .success_rate, .last_refined}
       AS capability
