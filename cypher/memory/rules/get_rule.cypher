// Reads one rule with its effective confidence at $now (same formula as memory/rules/list_rules).
// Params: $agent_id (string), $rule_id (string), $now (datetime),
//         $decay (map: per_month float, grace_days float, month_days float).
// Returns: rule (map: properties without the embedding, effective_confidence, has_embedding,
//          derived_from (episode ids); null when the agent has no such rule).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (r:Rule {agent_id: $agent_id, id: $rule_id})
WITH r, duration.inSeconds(coalesce(r.last_validated, r.created_at), $now).seconds / 86400.0
        AS days
RETURN CASE WHEN r IS NULL THEN null ELSE r {
  .*, embedding: null,
  effective_confidence: CASE WHEN days > $decay.grace_days
                             THEN r.confidence * $decay.per_month ^ (days / $decay.month_days)
                             ELSE r.confidence END,
  has_embedding: r.embedding IS NOT NULL,
  derived_from: [(r)-[:DERIVED_FROM]->(e:Episode) | e.id]
} END AS rule
