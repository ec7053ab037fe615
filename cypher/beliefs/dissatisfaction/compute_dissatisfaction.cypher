// Dissatisfaction D = Σ tension·w / Σ w over the agent's active beliefs, with
// w = importance · (0.5 + 0.5 · degree / max_degree) (degree: SUPPORTS and CONTRADICTS edges to
// other active beliefs). Since w is linear in degree, D comes from four running sums the write
// paths keep on the Agent node (Σ imp, Σ imp·deg, Σ t·imp, Σ t·imp·deg) and the maximum degree:
// constant time whatever the size of the graph. The sums are kept by additions and subtractions,
// so D is held to [0, 1] (rounding left -7e-17 once every tense belief was revised). Only tense
// beliefs are read, through the (agent_id, tension) index, to name the $top largest contributors (share = tension·w / Σ w).
// Params: $agent_id (string), $top (int: contributors to name; 0 reads no belief at all), $count_beliefs (boolean: count the active beliefs,
//         which reads every one of them; false inside a turn, where only D matters).
// Returns: value (float), beliefs (int: active; null unless $count_beliefs), contributors (list of {id, statement, tension,
//          importance, degree, weight, share}, largest share first). No row if the agent is
//          unknown.
MATCH (agent:Agent {id: $agent_id})
WITH agent, toFloat(agent.d_max_degree) AS max_degree
WITH agent, max_degree,
     CASE WHEN max_degree > 0
          THEN 0.5 * agent.d_imp + 0.5 * agent.d_imp_deg / max_degree
          ELSE 0.5 * agent.d_imp END AS total,
     CASE WHEN max_degree > 0
          THEN 0.5 * agent.d_t_imp + 0.5 * agent.d_t_imp_deg / max_degree
          ELSE 0.5 * agent.d_t_imp END AS tense
CALL (agent, max_degree, total) {
  WITH total WHERE $top > 0
  MATCH (b:Belief {agent_id: $agent_id})
  WHERE b.tension > 0 AND b.is_active AND total > 0
  WITH b, b.importance * (0.5 + CASE WHEN max_degree > 0
                                     THEN 0.5 * b.degree / max_degree ELSE 0.0 END) AS weight
  WITH b, weight, b.tension * weight / total AS share
  ORDER BY share DESC, b.id
  LIMIT $top
  RETURN collect({id: b.id, statement: b.statement, tension: b.tension,
                  importance: b.importance, degree: b.degree, weight: weight,
                  share: share}) AS contributors
}
CALL (agent) {
  RETURN CASE WHEN $count_beliefs
              THEN COUNT { (b:Belief {agent_id: $agent_id, is_active: true}) } END AS beliefs
}
RETURN CASE WHEN total <= 0 OR tense <= 0 THEN 0.0 WHEN tense >= total THEN 1.0
            ELSE tense / total END AS value, beliefs, contributors
