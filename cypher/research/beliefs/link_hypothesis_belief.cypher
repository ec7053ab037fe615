// Records what a decided hypothesis did to the agent's beliefs: (Hypothesis)-[:INFORMED {effect}]
// ->(Belief), effect created (a new belief), reinforced (a belief it repeats) or challenged
// (a belief it refutes), with the Evidence nodes written for it.
// Params: $agent_id (string), $hypothesis_id (string), $belief_id (string), $effect (string),
//         $evidence_ids (list of strings).
// Returns: belief_id (string). No row if either is unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (h:Hypothesis {agent_id: $agent_id, id: $hypothesis_id})
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
MERGE (h)-[r:INFORMED]->(b)
SET r.effect = $effect, r.at = datetime($now)
WITH h, b
CALL (h) {
  UNWIND $evidence_ids AS evidence_id
  MATCH (e:Evidence {agent_id: $agent_id, id: evidence_id})
  MERGE (e)-[:FROM_RESEARCH]->(h)
}
RETURN b.id AS belief_id
