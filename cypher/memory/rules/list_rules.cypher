// Lists an agent's active rules (a rule a pack version retired is left out) with their
// effective confidence at $now, highest first: confidence · per_month^(days since validation /
// month_days) once more than grace_days have passed (counted from creation when never
// validated); the stored confidence before that.
// Params: $agent_id (string), $trigger_concept (string or null: lower-case substring),
//         $min_effective (float or null), $skip (int), $limit (int), $now (datetime),
//         $decay (map: per_month float, grace_days float, month_days float).
// Returns: rules (list of maps as in memory/rules/get_rule), count (int, all matches).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (r:Rule {agent_id: agent.id})
  WHERE coalesce(r.is_active, true)
    AND ($trigger_concept IS NULL OR toLower(r.trigger_concept) CONTAINS $trigger_concept)
  WITH r, duration.inSeconds(coalesce(r.last_validated, r.created_at), $now).seconds / 86400.0
          AS days
  WITH r, CASE WHEN days > $decay.grace_days
               THEN r.confidence * $decay.per_month ^ (days / $decay.month_days)
               ELSE r.confidence END AS effective
  WHERE $min_effective IS NULL OR effective >= $min_effective
  WITH r, effective ORDER BY effective DESC, r.created_at DESC, r.id
  RETURN collect(r {.*, embedding: null, effective_confidence: effective,
                    has_embedding: r.embedding IS NOT NULL,
                    derived_from: [(r)-[:DERIVED_FROM]->(e:Episode) | e.id]}) AS matches
}
RETURN matches[$skip..$skip + $limit] AS rules, size(matches) AS count
