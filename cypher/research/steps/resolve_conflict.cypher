// What a resolve step decided about one open conflict: resolved (with the winning source and the
// decisive evidence, DECIDED_BY) or unresolvable, with the resolution text either way.
// Params: $agent_id (string), $investigation_id (string), $step_id (string), $conflict (map: id,
//         status (resolved/unresolvable), resolution (string), basis (string), winner_source_id
//         (string or null), decisive_evidence_id (string or null), reasoner (string)).
// Returns: status (string). No row if the conflict is unknown or no longer open.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (c:Conflict {agent_id: $agent_id, investigation_id: $investigation_id, id: $conflict.id})
WHERE c.status = 'open'
MATCH (step:ResearchStep {id: $step_id})
SET c.status = $conflict.status,
    c.resolution = $conflict.resolution,
    c.basis = $conflict.basis,
    c.winner_source_id = $conflict.winner_source_id,
    c.reasoner = $conflict.reasoner,
    c.resolved_at = datetime($now)
CREATE (step)-[:RESOLVED]->(c)
WITH c
CALL (c) {
  MATCH (e:ResearchEvidence {id: $conflict.decisive_evidence_id, investigation_id: $investigation_id})
  CREATE (c)-[:DECIDED_BY]->(e)
}
RETURN c.status AS status
