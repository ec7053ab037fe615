// Records the rules a turn applied: (:Episode)-[:USED]->(:Rule), and (:Decision)-[:USED]->(:Rule)
// when the turn recorded a decision; when $validate (the turn's outcome was a success: the rule
// helped) each is validated too: validation_count + 1, last_validated = $now, which restarts
// its confidence decay. A rule retired since the turn read it (a pack version dropped it:
// docs/packs.md §3) keeps its USED edges, the turn's history, but is not validated.
// Params: $agent_id (string), $episode_id (string), $decision_id (string or null),
//         $rule_ids (list of strings), $validate (boolean), $now (datetime).
// Returns: id (string), validation_count (int or null), one row per rule found.
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
UNWIND $rule_ids AS rule_id
MATCH (r:Rule {agent_id: $agent_id, id: rule_id})
MERGE (e)-[:USED]->(r)
WITH r
OPTIONAL MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
FOREACH (decision IN CASE WHEN d IS NULL THEN [] ELSE [d] END |
  MERGE (decision)-[:USED]->(r))
WITH DISTINCT r
WITH r, $validate AND coalesce(r.is_active, true) AS validate
SET r.validation_count = CASE WHEN validate THEN coalesce(r.validation_count, 0) + 1
                              ELSE r.validation_count END,
    r.last_validated = CASE WHEN validate THEN $now ELSE r.last_validated END
RETURN r.id AS id, r.validation_count AS validation_count
