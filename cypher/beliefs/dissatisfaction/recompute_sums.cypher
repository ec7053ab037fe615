// Recomputes, from the graph itself, every belief's degree (SUPPORTS and CONTRADICTS edges to
// other active beliefs) and the agent's dissatisfaction sums. The write paths keep these up to
// date incrementally; this is for bulk loads, back-fills and checks.
// Params: $agent_id (string).
// Returns: d_imp, d_imp_deg, d_t_imp, d_t_imp_deg (floats), d_max_degree (int), beliefs (int).
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (b:Belief {agent_id: $agent_id})
  SET b.degree = COUNT { (b)-[:SUPPORTS|CONTRADICTS]-(o:Belief) WHERE o.is_active }
}
CALL (agent) {
  OPTIONAL MATCH (b:Belief {agent_id: $agent_id, is_active: true})
  RETURN coalesce(sum(b.importance), 0.0) AS d_imp,
         coalesce(sum(b.importance * b.degree), 0.0) AS d_imp_deg,
         coalesce(sum(b.tension * b.importance), 0.0) AS d_t_imp,
         coalesce(sum(b.tension * b.importance * b.degree), 0.0) AS d_t_imp_deg,
         coalesce(max(b.degree), 0) AS d_max_degree,
         count(b) AS beliefs
}
SET agent.d_imp = toFloat(d_imp), agent.d_imp_deg = toFloat(d_imp_deg),
    agent.d_t_imp = toFloat(d_t_imp), agent.d_t_imp_deg = toFloat(d_t_imp_deg),
    agent.d_max_degree = d_max_degree
RETURN d_imp, d_imp_deg, d_t_imp, d_t_imp_deg, d_max_degree, beliefs
