// An agent's revisions, newest first, a page at a time: the revisions are counted in one
// subquery; the page is sorted, skipped and limited in another, and only its rows are joined to
// their beliefs and parent and projected.
// Params: $agent_id (string), $skip (int), $limit (int).
// Returns: revisions (list of {id, old_belief_id, new_belief_id, old_statement, new_statement,
//          trigger_tension, mode, depth, reasoner, parent_revision_id, at}), count (int).
CALL () {
  MATCH (r:Revision {agent_id: $agent_id})
  RETURN count(r) AS count
}
CALL () {
  MATCH (r:Revision {agent_id: $agent_id})
  WITH r ORDER BY r.at DESC, r.id
  SKIP $skip LIMIT $limit
  OPTIONAL MATCH (r)-[:REVISED]->(old:Belief)
  OPTIONAL MATCH (r)-[:PRODUCED]->(new:Belief)
  OPTIONAL MATCH (r)-[:CASCADED_FROM]->(parent:Revision)
  WITH r, old, new, parent ORDER BY r.at DESC, r.id
  RETURN collect({id: r.id, old_belief_id: old.id, new_belief_id: new.id,
                  old_statement: r.old_statement, new_statement: r.new_statement,
                  trigger_tension: r.trigger_tension, mode: r.mode, depth: r.depth,
                  reasoner: r.reasoner, parent_revision_id: parent.id, at: r.at}) AS revisions
}
RETURN revisions, count
