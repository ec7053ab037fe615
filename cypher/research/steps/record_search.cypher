// What one search step found for a hypothesis: each passage becomes a Source of the investigation
// (one per kind + ref: a passage found again keeps its node and citation number), FOUND_FOR the
// hypothesis; the hypothesis becomes 'validating' and counts the search: in `searches` when a
// source answered, else (every source failed) in `failed_searches`. Its `failed_sources` keeps
// each source (or `<source>/<part>`) that failed and has not answered one of its searches since.
// Params: $agent_id (string), $investigation_id (string), $hypothesis_id (string), $step_id
//         (string), $query (string), $passages (list of maps: id (string: used when new), number
//         (int: citation number when new), source_name, kind, ref, title, origin, text,
//         published (date or null), score (float)), $failed_sources (list of strings: what
//         failed in this search), $answered (list of strings: the sources that answered it),
//         $counted (boolean: a source answered, so the search uses up one of the hypothesis').
// Returns: found (int: passages linked).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
MATCH (h:Hypothesis {id: $hypothesis_id, investigation_id: $investigation_id})
MATCH (step:ResearchStep {id: $step_id})
WITH i, h, step, coalesce(h.failed_sources, []) AS failed_before
SET h.searches = h.searches + CASE WHEN $counted THEN 1 ELSE 0 END,
    h.failed_searches = coalesce(h.failed_searches, 0) + CASE WHEN $counted THEN 0 ELSE 1 END,
    h.failed_sources = [name IN failed_before
                        WHERE NOT split(name, '/')[0] IN $answered
                          AND NOT name IN $failed_sources] + $failed_sources,
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
