// Records a validation of a rule: validation_count + 1, last_validated = $now. A retired rule
// (a pack version dropped it: docs/packs.md §3) is left as it is, and says so.
// Params: $agent_id (string), $rule_id (string), $now (datetime).
// Returns: id (string), is_active (boolean: false for a retired rule, which was not validated).
//          No row when the agent has no such rule.
MATCH (r:Rule {agent_id: $agent_id, id: $rule_id})
CALL (r) {
  WITH r WHERE coalesce(r.is_active, true)
  SET r.validation_count = coalesce(r.validation_count, 0) + 1,
      r.last_validated = $now
}
RETURN r.id AS id, coalesce(r.is_active, true) AS is_active
