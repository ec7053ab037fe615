// Deactivates a belief (never deletes it), records a manual event (none when it was already
// inactive: nothing changed), and takes it out of the
// agent's dissatisfaction sums: its own terms, one degree from each active neighbour, and the
// maximum degree recomputed. Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $belief_id (string).
// Returns: id (string), was_active (boolean). No row if unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
WITH agent, b, b.is_active AS was_active
CALL (agent, b, was_active) {
  WITH agent, b WHERE was_active
  SET b.is_active = false,
      agent.d_imp = agent.d_imp - b.importance,
      agent.d_imp_deg = agent.d_imp_deg - b.importance * b.degree,
      agent.d_t_imp = agent.d_t_imp - b.tension * b.importance,
      agent.d_t_imp_deg = agent.d_t_imp_deg - b.tension * b.importance * b.degree
  WITH agent, b
  CALL (agent, b) {
    MATCH (b)-[:SUPPORTS|CONTRADICTS]-(n:Belief)
    WHERE n.is_active
    SET n.degree = n.degree - 1,
        agent.d_imp_deg = agent.d_imp_deg - n.importance,
        agent.d_t_imp_deg = agent.d_t_imp_deg - n.tension * n.importance
  }
  CALL (agent) {
    OPTIONAL MATCH (x:Belief {agent_id: $agent_id, is_active: true})
    WITH agent, coalesce(max(x.degree), 0) AS highest
    SET agent.d_max_degree = highest
  }
  SET agent.event_seq = agent.event_seq + 1
  CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'manual',
                         action: 'deactivated', seq: agent.event_seq,
                         old_strength: b.strength, new_strength: b.strength,
                         old_tension: b.tension, new_tension: b.tension,
                         at: datetime($now)})-[:OF]->(b)
}
RETURN b.id AS id, was_active
