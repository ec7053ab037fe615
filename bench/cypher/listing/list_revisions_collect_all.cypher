// Bench only: the listing as it was before paging in the database (every revision projected,
// then sliced), kept to compare with cypher/beliefs/revision/list_revisions (bench/belief_listing.py).
// An agent's revisions, newest first.
// Params: $agent_id (string), $skip (int), $limit (int).
// Returns: revisions (list of {id, old_belief_id, new_belief_id, old_statement, new_statement,
//          trigger_tension, mode, depth, reasoner, parent_revision_id, at}), count (int).
MATCH (r:Revision {agent_id: $agent_id})
OPTIONAL MATCH (r)-[:REVISED]->(old:Belief)
OPTIONAL MATCH (r)-[:PRODUCED]->(new:Belief)
OPTIONAL MATCH (r)-[:CASCADED_FROM]->(parent:Revision)
WITH r, old, new, parent ORDER BY r.at DESC, r.id
WITH collect({id: r.id, old_belief_id: old.id, new_belief_id: new.id,
              old_statement: r.old_statement, new_statement: r.new_statement,
              trigger_tension: r.trigger_tension, mode: r.mode, depth: r.depth,
              reasoner: r.reasoner, parent_revision_id: parent.id, at: r.at}) AS found
RETURN found[$skip..$skip + $limit] AS revisions, size(found) AS count
