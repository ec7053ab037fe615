// What one search step found for a hypothesis: each passage becomes a Source of the investigation
// (one per kind + ref: a passage found again keeps its node and citation number), FOUND_FOR the
// hypothesis; the hypothesis counts the search and becomes 'validating'.
// Params: $agent_id (string), $investigation_id (string), $hypothesis_id (string), $step_id
//         (string), $query (string), $passages (list of maps: id (string: used when new), number
//         (int: citation number when new), source_name, kind, ref, title, origin, text,
//         published (date or null), score (float)).
// Returns: found (int: passages linked).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
MATCH (h:Hypothesis {id: $hypothesis_id, investigation_id: $investigation_id})
MATCH (step:ResearchStep {id: $step_id})
SET h.searches = h.searches + 1,
    h.status = CASE WHEN h.status = 'proposed' THEN 'validating' ELSE h.status END,
    h.last_query = $query
WITH i, h, step
UNWIND $passages AS passage
MERGE (s:Source {investigation_id: $investigation_id, kind: passage.kind, ref: passage.ref})
ON CREATE SET s.id = passage.id,
              s.agent_id = $agent_id,
              s.number = passage.number,
              s.source_name = passage.source_name,
              s.title = passage.title,
              s.origin = passage.origin,
              s.text = passage.text,
              s.published = passage.published,
              s.score = passage.score,
              s.found_at = datetime($now)
MERGE (i)-[:FOUND]->(s)
MERGE (s)-[:FOUND_FOR]->(h)
MERGE (step)-[:FOUND]->(s)
RETURN count(s) AS found
