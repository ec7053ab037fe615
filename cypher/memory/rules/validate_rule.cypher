// Records a validation of a rule: validation_count + 1, last_validated = $now.
// Params: $agent_id (string), $rule_id (string), $now (datetime).
// Returns: id (string). No row when the agent has no such rule.
MATCH (r:Rule {agent_id: $agent_id, id: $rule_id})
SET r.validation_count = coalesce(r.validation_count, 0) + 1,
    r.last_validated = $now
RETURN r.id AS id
