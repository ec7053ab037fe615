// Test setup: creates Belief nodes from maps (id, agent_id, statement, embedding).
// Params: $beliefs (list of maps). Returns: created (int).
UNWIND $beliefs AS belief
CREATE (b:Belief)
SET b = belief
RETURN count(b) AS created
