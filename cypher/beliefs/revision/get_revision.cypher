// One revision with everything it recorded, the beliefs before and after, its parent and the
// revisions it cascaded into.
// Params: $agent_id (string), $revision_id (string).
// Returns: revision (map), old_belief (map), new_belief (map or null), parent_revision_id
//          (string or null), cascaded (list of {id, old_statement, new_statement, depth}).
//          No row if unknown.
MATCH (r:Revision {agent_id: $agent_id, id: $revision_id})
OPTIONAL MATCH (r)-[:REVISED]->(old:Belief)
OPTIONAL MATCH (r)-[:PRODUCED]->(new:Belief)
OPTIONAL MATCH (r)-[:CASCADED_FROM]->(parent:Revision)
CALL (r) {
  OPTIONAL MATCH (child:Revision)-[:CASCADED_FROM]->(r)
  RETURN collect(CASE WHEN child IS NULL THEN null ELSE
                 {id: child.id, old_statement: child.old_statement,
                  new_statement: child.new_statement, depth: child.depth} END) AS cascaded
}
RETURN properties(r) AS revision, old {.*, embedding: null} AS old_belief,
       new {.*, embedding: null} AS new_belief, parent.id AS parent_revision_id, cascaded
