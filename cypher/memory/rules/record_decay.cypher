// Records on each of the agent's active rules (a rule a pack version retired keeps what it had)
// its decayed confidence at $now (the formula of memory/rules/list_rules: confidence ·
// per_month^(days since validation / month_days) once more than grace_days have passed) and
// when, so that a reader of the graph sees it without the formula; the stored confidence is not
// changed, and the read-time formula stays the one the API and retrieval use.
// Params: $agent_id (string), $now (datetime), $decay (map: per_month float, grace_days float,
//         month_days float).
// Returns: rules (int), decaying (int: past the grace period), mean_confidence (float or null:
//          the mean decayed confidence).
MATCH (r:Rule {agent_id: $agent_id})
  WHERE coalesce(r.is_active, true)
WITH r, duration.inSeconds(coalesce(r.last_validated, r.created_at), $now).seconds / 86400.0
        AS days
WITH r, days > $decay.grace_days AS decaying,
     CASE WHEN days > $decay.grace_days
          THEN r.confidence * $decay.per_month ^ (days / $decay.month_days)
          ELSE r.confidence END AS effective
SET r.decayed_confidence = effective, r.decayed_at = $now
RETURN count(r) AS rules, sum(CASE WHEN decaying THEN 1 ELSE 0 END) AS decaying,
       avg(effective) AS mean_confidence
