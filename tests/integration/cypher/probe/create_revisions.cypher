// Test setup: creates Revision nodes from maps (id, agent_id, at, mode, old_statement,
// new_statement, trigger_tension, depth, reasoner), each REVISED its old belief and PRODUCED its
// new one (given by id), and CASCADED_FROM its parent revision when one is named.
// Params: $revisions (list of {revision: map, old_id, new_id, parent_id (string or null)}).
// Returns: created (int).
UNWIND $revisions AS row
CREATE (r:Revision)
SET r = row.revision
WITH r, row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
CREATE (r)-[:REVISED]->(old), (r)-[:PRODUCED]->(new)
WITH r, row
CALL (r, row) {
  MATCH (parent:Revision {id: row.parent_id})
  CREATE (r)-[:CASCADED_FROM]->(parent)
}
RETURN count(r) AS created
