// For a batch of evidence: which of the beliefs it names lie above which others along SUPPORTS
// paths of active beliefs, i.e. which a reinforcement of the other would re-derive (the
// cascade's paths, beliefs/cascade/cascade_strength). The batch is split before a piece on a
// belief above one that an earlier piece reinforced, so that it sees that cascade first.
// Params: $agent_id (string), $source_ids (list of strings: the beliefs reinforced),
//         $ids (list of strings: every belief the batch names).
// Returns: id (string: a belief of $source_ids), above (list of strings: the beliefs of $ids
//          above it); one row per belief of $source_ids that has any.
MATCH path = (source:Belief)-[:SUPPORTS]->+(above:Belief)
WHERE source.agent_id = $agent_id AND source.id IN $source_ids AND above.id IN $ids
  AND all(n IN nodes(path) WHERE n.is_active)
RETURN source.id AS id, collect(DISTINCT above.id) AS above
