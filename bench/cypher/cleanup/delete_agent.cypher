// Bench only: deletes everything a bench agent owns (its Agent, Beliefs, BeliefEvents, Evidence,
// Contexts) in batches. Run outside an explicit transaction (CALL ... IN TRANSACTIONS).
// Params: $agent_id (string: must start with 'bench-').
// Returns: nothing.
CALL () {
  MATCH (n:BeliefEvent {agent_id: $agent_id}) RETURN n
  UNION ALL
  MATCH (n:Evidence {agent_id: $agent_id}) RETURN n
  UNION ALL
  MATCH (n:Belief {agent_id: $agent_id}) RETURN n
  UNION ALL
  MATCH (n:Context {agent_id: $agent_id}) RETURN n
  UNION ALL
  MATCH (n:Agent {id: $agent_id}) RETURN n
}
WITH n WHERE $agent_id STARTS WITH 'bench-'
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 10000 ROWS
