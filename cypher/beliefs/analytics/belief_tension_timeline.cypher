// Tension timeline of a belief from its events, across its supersession lineage.
// Every change of tension (and strength) in sequence, with the evidence that caused it. With
// $follow_lineage the timeline includes the beliefs it replaced and the ones that replaced it,
// so a revision shows as tension reaching the threshold, then a new belief starting again at 0.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', belief_id: null, follow_lineage: true}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $belief_id :: STRING  the belief (any of its lineage), null for the most tense active belief
//   $follow_lineage :: BOOLEAN NOT NULL  include predecessors and successors (default true)
// Returns one row per event, in sequence order (no rows: unknown belief, or no beliefs):
//   seq :: INTEGER  the agent's event sequence number
//   at :: DATETIME
//   generation :: INTEGER  0 for the first belief of the lineage, +1 per revision
//   belief_id :: STRING  the belief the event belongs to
//   kind :: STRING  'manual', 'pack', 'reinforcement', 'contradiction', 'cascade', 'revision', ...
//   action :: STRING  'created', 'evidence', 'propagated', 'superseded', 'deactivated', ...
//   old_tension :: FLOAT  null for a creation
//   new_tension :: FLOAT
//   tension_change :: FLOAT  new_tension - old_tension (null for a creation)
//   new_strength :: FLOAT
//   evidence_texts :: LIST<STRING>  the evidence that caused the change (empty: none or
//                                   propagated)
//   origin_belief_ids :: LIST<STRING>  for propagated tension, the beliefs the evidence
//                                      challenged (null otherwise)
//   revision_id :: STRING  for revision events
//   statement :: STRING  the statement of the event's belief
CALL () {
  MATCH (b:Belief {agent_id: $agent_id})
  WHERE ($belief_id IS NULL AND b.is_active) OR b.id = $belief_id
  WITH b ORDER BY b.tension DESC, b.last_challenged DESC, b.id LIMIT 1
  RETURN b AS focus
}
CALL (focus) {
  MATCH back = (ancestor:Belief)-[:SUPERSEDED_BY]->*(focus)
  WHERE $follow_lineage OR ancestor = focus
  RETURN ancestor AS member, -length(back) AS offset
  UNION
  MATCH ahead = (focus)-[:SUPERSEDED_BY]->*(descendant:Belief)
  WHERE $follow_lineage OR descendant = focus
  RETURN descendant AS member, length(ahead) AS offset
}
WITH collect({member: member, offset: offset}) AS members
WITH members, reduce(lowest = 0, m IN members | CASE WHEN m.offset < lowest THEN m.offset
                                                     ELSE lowest END) AS lowest
UNWIND members AS m
WITH m.member AS member, m.offset - lowest AS generation
MATCH (e:BeliefEvent)-[:OF]->(member)
OPTIONAL MATCH (ev:Evidence {agent_id: $agent_id})
WHERE ev.id IN coalesce(e.evidence_ids, [])
WITH e, member, generation, collect(ev.text) AS evidence_texts
RETURN e.seq AS seq,
       e.at AS at,
       generation,
       member.id AS belief_id,
       e.kind AS kind,
       e.action AS action,
       e.old_tension AS old_tension,
       e.new_tension AS new_tension,
       e.new_tension - e.old_tension AS tension_change,
       e.new_strength AS new_strength,
       evidence_texts,
       e.origin_belief_ids AS origin_belief_ids,
       e.revision_id AS revision_id,
       member.statement AS statement
ORDER BY seq
