// The agent's dissatisfaction sums as the write paths keep them (compare with
// beliefs/dissatisfaction/recompute_sums to check them).
// Params: $agent_id (string).
// Returns: d_imp, d_imp_deg, d_t_imp, d_t_imp_deg (floats), d_max_degree (int). No row if the
//          agent is unknown.
MATCH (agent:Agent {id: $agent_id})
RETURN agent.d_imp AS d_imp, agent.d_imp_deg AS d_imp_deg, agent.d_t_imp AS d_t_imp,
       agent.d_t_imp_deg AS d_t_imp_deg, agent.d_max_degree AS d_max_degree
