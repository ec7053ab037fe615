// Test setup: an agent with a terminal creed, as full birth creates one.
// Params: $id (string), $agent_name (string), $creed (list of strings).
// Returns: id (string).
CREATE (a:Agent {id: $id, agent_id: $id, name: $agent_name, terminal_creed: $creed,
                 birth_source: 'full', identity_goal: 'Help', created_at: datetime(),
                 event_seq: 0, write_count: 0, high_dissatisfaction_streak: 0,
                 d_imp: 0.0, d_imp_deg: 0.0, d_t_imp: 0.0, d_t_imp_deg: 0.0, d_max_degree: 0})
RETURN a.id AS id
