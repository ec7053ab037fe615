// Data: gives beliefs and agents created before V0007 their degree and dissatisfaction sums
// (the write paths keep them from then on). Same computation as
// cypher/dissatisfaction/recompute_sums.cypher, for every agent. Idempotent.
MATCH (b:Belief) WHERE b.degree IS NULL
CALL (b) {
  SET b.degree = COUNT { (b)-[:SUPPORTS|CONTRADICTS]-(o:Belief) WHERE o.is_active }
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (agent:Agent) WHERE agent.d_imp IS NULL
CALL (agent) {
  OPTIONAL MATCH (b:Belief {agent_id: agent.id, is_active: true})
  WITH agent, coalesce(sum(b.importance), 0.0) AS d_imp,
       coalesce(sum(b.importance * b.degree), 0.0) AS d_imp_deg,
       coalesce(sum(b.tension * b.importance), 0.0) AS d_t_imp,
       coalesce(sum(b.tension * b.importance * b.degree), 0.0) AS d_t_imp_deg,
       coalesce(max(b.degree), 0) AS d_max_degree
  SET agent.d_imp = toFloat(d_imp), agent.d_imp_deg = toFloat(d_imp_deg),
      agent.d_t_imp = toFloat(d_t_imp), agent.d_t_imp_deg = toFloat(d_t_imp_deg),
      agent.d_max_degree = d_max_degree
} IN TRANSACTIONS OF 1000 ROWS;
