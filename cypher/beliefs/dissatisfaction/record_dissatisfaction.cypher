// Records one turn's dissatisfaction D as it stands (computed from the running sums on the Agent,
// as beliefs/dissatisfaction/compute_dissatisfaction does with $top 0: one round trip for the
// sample), its band, and updates the streak of turns above the meditation level.
// Params: $agent_id (string), $medium_from (float), $high_from (float: the band's lower bounds),
//         $level (float: the meditation level; a value above it extends the streak),
//         $restart (boolean: the streak restarts whatever D is: after a meditation).
// Returns: value (float), streak (int, consecutive turns above the level).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (a:Agent {id: $agent_id})
WITH a, toFloat(a.d_max_degree) AS max_degree
WITH a,
     CASE WHEN max_degree > 0
          THEN 0.5 * a.d_imp + 0.5 * a.d_imp_deg / max_degree
          ELSE 0.5 * a.d_imp END AS total,
     CASE WHEN max_degree > 0
          THEN 0.5 * a.d_t_imp + 0.5 * a.d_t_imp_deg / max_degree
          ELSE 0.5 * a.d_t_imp END AS tense
WITH a, CASE WHEN total <= 0 OR tense <= 0 THEN 0.0 WHEN tense >= total THEN 1.0
            ELSE tense / total END AS value
SET a.high_dissatisfaction_streak = CASE WHEN value > $level AND NOT $restart
      THEN coalesce(a.high_dissatisfaction_streak, 0) + 1 ELSE 0 END
CREATE (s:DissatisfactionSample {id: randomUUID(), agent_id: $agent_id, value: value,
                                 band: CASE WHEN value < $medium_from THEN 'low'
                                            WHEN value < $high_from THEN 'medium'
                                            ELSE 'high' END,
                                 at: datetime($now)})
RETURN value, a.high_dissatisfaction_streak AS streak
