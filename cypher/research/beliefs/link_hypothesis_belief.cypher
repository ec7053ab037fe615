// Records what a decided hypothesis did to the agent's beliefs: (Hypothesis)-[:INFORMED {effect}]
// ->(Belief), effect created (a new belief), reinforced (a belief it repeats) or challenged
// (a belief it refutes), with the Evidence nodes written for it, each linked FROM_RESEARCH to
// the hypothesis and marked with where it came from.
// Params: $agent_id (string), $hypothesis_id (string), $belief_id (string), $effect (string),
//         $evidence (list of maps: id, passage_key ("<source kind>:<ref>"), investigation_id,
//         hypothesis_id, source_name, title, origin (each string; title and origin nullable)).
// Returns: belief_id (string). No row if either is unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (h:Hypothesis {agent_id: $agent_id, id: $hypothesis_id})
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
MERGE (h)-[r:INFORMED]->(b)
SET r.effect = $effect, r.at = datetime($now)
WITH h, b
CALL (h) {
  UNWIND $evidence AS piece
  MATCH (e:Evidence {agent_id: $agent_id, id: piece.id})
  SET e.passage_key = piece.passage_key,
      e.investigation_id = piece.investigation_id,
      e.hypothesis_id = piece.hypothesis_id,
      e.source_name = piece.source_name,
      e.source_title = piece.title,
      e.source_origin = piece.origin
  MERGE (e)-[:FROM_RESEARCH]->(h)
}
RETURN b.id AS belief_id
