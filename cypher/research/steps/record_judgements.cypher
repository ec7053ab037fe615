// What one judge step decided: the stance of each source on a hypothesis, as a ResearchEvidence
// (one per hypothesis and source) FROM the source and SUPPORTS / CONTRADICTS (or, when neutral,
// ABOUT) the hypothesis, with the stance's confidence and reason.
// Params: $agent_id (string), $investigation_id (string), $step_id (string), $judgements (list
//         of maps: id, hypothesis_id, source_id, stance (supports/contradicts/neutral),
//         confidence (float), reason (string), reasoner (string), similarity (float or null:
//         the offline judge's cosine of passage and hypothesis; null leaves it unset)).
// Returns: recorded (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (step:ResearchStep {id: $step_id})
UNWIND $judgements AS judgement
MATCH (h:Hypothesis {id: judgement.hypothesis_id, investigation_id: $investigation_id})
MATCH (s:Source {id: judgement.source_id, investigation_id: $investigation_id})
MERGE (e:ResearchEvidence {hypothesis_id: h.id, source_id: s.id})
ON CREATE SET e.id = judgement.id,
              e.agent_id = $agent_id,
              e.investigation_id = $investigation_id,
              e.stance = judgement.stance,
              e.confidence = judgement.confidence,
              e.reason = judgement.reason,
              e.reasoner = judgement.reasoner,
              e.similarity = judgement.similarity,
              e.judged_at = datetime($now)
MERGE (e)-[:FROM]->(s)
MERGE (step)-[:JUDGED]->(e)
FOREACH (_ IN CASE WHEN judgement.stance = 'supports' THEN [1] ELSE [] END |
  MERGE (e)-[:SUPPORTS {confidence: judgement.confidence}]->(h))
FOREACH (_ IN CASE WHEN judgement.stance = 'contradicts' THEN [1] ELSE [] END |
  MERGE (e)-[:CONTRADICTS {confidence: judgement.confidence}]->(h))
FOREACH (_ IN CASE WHEN judgement.stance = 'neutral' THEN [1] ELSE [] END |
  MERGE (e)-[:ABOUT]->(h))
RETURN count(e) AS recorded
