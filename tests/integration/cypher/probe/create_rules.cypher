// Test setup: creates Rule nodes from maps (id, agent_id, trigger_concept, content).
// Params: $rules (list of maps). Returns: created (int).
UNWIND $rules AS rule
CREATE (r:Rule)
SET r = rule
RETURN count(r) AS created
