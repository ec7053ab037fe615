// Test probe: the decayed confidence the scheduler recorded on a rule, and its stored confidence.
// Params: $rule_id (string).
// Returns: confidence (float), decayed_confidence (float or null), decayed_at (datetime or null).
MATCH (r:Rule {id: $rule_id})
RETURN r.confidence AS confidence, r.decayed_confidence AS decayed_confidence,
       r.decayed_at AS decayed_at
