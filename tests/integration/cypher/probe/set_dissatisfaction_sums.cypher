// Sets an agent's running dissatisfaction sums of tension (the rounding tests: subtractions can
// leave them a hair below 0).
// Params: $agent_id (string), $t_imp (float), $t_imp_deg (float).
// Returns: nothing.
MATCH (a:Agent {id: $agent_id})
SET a.d_t_imp = $t_imp, a.d_t_imp_deg = $t_imp_deg
