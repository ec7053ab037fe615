// Conflicts the judge step found: two sources that disagree about a hypothesis (one supports it,
// one contradicts it), one Conflict per hypothesis and pair, open until a resolve step.
// Params: $agent_id (string), $investigation_id (string), $step_id (string), $conflicts (list of
//         maps: id, hypothesis_id, pair (string: the two source ids, sorted and joined),
//         first_source_id (string: the supporting source), second_source_id (string: the
//         contradicting one)).
// Returns: recorded (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
MATCH (step:ResearchStep {id: $step_id})
UNWIND $conflicts AS conflict
MATCH (h:Hypothesis {id: conflict.hypothesis_id, investigation_id: $investigation_id})
MATCH (first:Source {id: conflict.first_source_id, investigation_id: $investigation_id})
MATCH (second:Source {id: conflict.second_source_id, investigation_id: $investigation_id})
MERGE (c:Conflict {hypothesis_id: h.id, pair: conflict.pair})
ON CREATE SET c.id = conflict.id,
              c.agent_id = $agent_id,
              c.investigation_id = $investigation_id,
              c.status = 'open',
              c.first_source_id = first.id,
              c.second_source_id = second.id,
              c.detected_at = datetime($now)
MERGE (i)-[:HAS_CONFLICT]->(c)
MERGE (c)-[:ABOUT]->(h)
MERGE (c)-[:BETWEEN]->(first)
MERGE (c)-[:BETWEEN]->(second)
MERGE (step)-[:DETECTED]->(c)
RETURN count(c) AS recorded
