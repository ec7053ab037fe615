// Bench only: bulk-creates one batch of an agent's revisions, each REVISED one of its beliefs and
// PRODUCED another, `at` one second apart.
// Params: $agent_id (string), $revisions (list of maps: id, old_id, new_id, offset_s (int)).
// Returns: created (int).
UNWIND $revisions AS row
MATCH (old:Belief {agent_id: $agent_id, id: row.old_id})
MATCH (new:Belief {agent_id: $agent_id, id: row.new_id})
CREATE (r:Revision {id: row.id, agent_id: $agent_id})
SET r.trigger_tension = 0.9,
    r.old_statement = old.statement,
    r.new_statement = new.statement,
    r.evidence_summary = 'bench',
    r.reasoning = 'bench',
    r.behavioral_changes = [],
    r.depth = 0,
    r.mode = 'threshold',
    r.reasoner = 'offline',
    r.at = datetime('2026-02-01T00:00:00Z') + duration({seconds: row.offset_s})
CREATE (r)-[:REVISED]->(old), (r)-[:PRODUCED]->(new)
RETURN count(r) AS created
