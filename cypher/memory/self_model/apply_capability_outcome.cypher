// Applies one outcome to a capability in one round trip (created, with its HAS_CAPABILITY edge,
// from the defaults when the agent has none in the domain): the formulas of
// app/memory/self_model.py capability_after — proficiency + (gain on a success, − loss on a
// failure) · complexity, and the success rate's EMA, both clamped to [0, 1], one more experience.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $domain (string), $now (datetime), $success (boolean),
//         $complexity (float), $defaults (map: proficiency float, success_rate float),
//         $m (map: alpha float (capability_success_alpha), gain float, loss float).
// Returns: capability (map: id, domain, proficiency, experience_count, success_rate,
//          last_refined). No row for an unknown agent.
MATCH (a:Agent {id: $agent_id})
MERGE (c:Capability {agent_id: $agent_id, domain: $domain})
  ON CREATE SET c.id = randomUUID()
MERGE (a)-[:HAS_CAPABILITY]->(c)
WITH c, toFloat(coalesce(c.proficiency, $defaults.proficiency)) AS proficiency,
     toFloat(coalesce(c.success_rate, $defaults.success_rate)) AS success_rate,
     coalesce(c.experience_count, 0) AS experience_count,
     CASE WHEN $success THEN 1.0 ELSE 0.0 END AS signal,
     CASE WHEN $success THEN $m.gain ELSE -$m.loss END AS step
SET c.proficiency = CASE WHEN proficiency + step * $complexity > 1.0 THEN 1.0
                         WHEN proficiency + step * $complexity < 0.0 THEN 0.0
                         ELSE proficiency + step * $complexity END,
    c.success_rate = CASE
      WHEN (1 - $m.alpha) * success_rate + $m.alpha * signal > 1.0 THEN 1.0
      WHEN (1 - $m.alpha) * success_rate + $m.alpha * signal < 0.0 THEN 0.0
      ELSE (1 - $m.alpha) * success_rate + $m.alpha * signal END,
    c.experience_count = experience_count + 1,
    c.last_refined = $now
RETURN c {.id, .domain, .proficiency, .experience_count, .success_rate, .last_refined}
       AS capability
