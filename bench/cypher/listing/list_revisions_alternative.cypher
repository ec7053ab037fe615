// Bench only: the variant that sorts every revision, collects node references and projects the
// page (one scan; what cypher/beliefs/store/list_beliefs does), measured against the app's
// count-subquery list_revisions by bench/belief_listing.py.
// An agent's revisions, newest first, a page at a time. The revisions are sorted and collected
// as node references (their count is the list's size), and only the page's rows are joined to
// their beliefs and parent and projected (bench/belief_listing.py).
// Params: $agent_id (string), $skip (int), $limit (int).
// Returns: revisions (list of {id, old_belief_id, new_belief_id, old_statement, new_statement,
//          trigger_tension, mode, depth, reasoner, parent_revision_id, at}), count (int).
MATCH (r:Revision {agent_id: $agent_id})
WITH r ORDER BY r.at DESC, r.id
WITH collect(r) AS found
RETURN [r IN found[$skip..$skip + $limit] |
        {id: r.id,
         old_belief_id: [(r)-[:REVISED]->(old:Belief) | old.id][0],
         new_belief_id: [(r)-[:PRODUCED]->(new:Belief) | new.id][0],
         old_statement: r.old_statement, new_statement: r.new_statement,
         trigger_tension: r.trigger_tension, mode: r.mode, depth: r.depth,
         reasoner: r.reasoner,
         parent_revision_id: [(r)-[:CASCADED_FROM]->(parent:Revision) | parent.id][0],
         at: r.at}] AS revisions,
       size(found) AS count
