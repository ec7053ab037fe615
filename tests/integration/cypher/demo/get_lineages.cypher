// Probe: every supersession lineage of an agent (the README's lineage query), as belief ids.
// Params: $agent_id (string).
// Returns: belief_ids (list of strings: old belief first), statements (list of strings).
MATCH lineage = (:Belief {agent_id: $agent_id})-[:SUPERSEDED_BY]->+(:Belief)
RETURN [b IN nodes(lineage) | b.id] AS belief_ids,
       [b IN nodes(lineage) | b.statement] AS statements
