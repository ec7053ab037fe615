// Ends sessions with peak-end salience (docs/memory.md §1): the episode with the largest |valence| is the
// peak (salience $salience.peak; none when every valence is 0), the last one is the end
// ($salience.end), the others $salience.plain. Ending again recomputes (idempotent).
// Params: $agent_id (string), $keys (list of session keys),
//         $salience (map: peak float, end float, plain float).
// Returns: session (string), episodes (int), peak_id (string or null), end_id (string).
UNWIND $keys AS key
MATCH (s:Session {agent_id: $agent_id, key: key})
MATCH (e:Episode)-[:IN_SESSION]->(s)
WITH s, e
ORDER BY e.occurred_at, e.created_at, e.id
WITH s, collect(e) AS episodes
WITH s, episodes, last(episodes) AS end_episode,
     reduce(best = null, x IN episodes |
       CASE WHEN abs(coalesce(x.emotional_valence, 0.0)) > 0.0
              AND (best IS NULL OR abs(x.emotional_valence) > abs(best.emotional_valence))
            THEN x ELSE best END) AS peak
FOREACH (x IN episodes |
  SET x.is_peak = (peak IS NOT NULL AND x = peak),
      x.is_end = (x = end_episode),
      x.salience = CASE WHEN peak IS NOT NULL AND x = peak THEN $salience.peak
                        WHEN x = end_episode THEN $salience.end
                        ELSE $salience.plain END)
SET s.ended_at = end_episode.occurred_at
RETURN s.key AS session, size(episodes) AS episodes, peak.id AS peak_id, end_episode.id AS end_id
