// Test probe: a rule's stored embedding size and a backdated validation time.
// Params: $rule_id (string).
// Returns: dimensions (int or null).
MATCH (r:Rule {id: $rule_id})
RETURN size(r.embedding) AS dimensions
