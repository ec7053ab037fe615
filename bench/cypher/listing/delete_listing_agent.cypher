// Bench only: deletes everything the listing bench's agent owns (its Agent, Beliefs, Revisions)
// in batches. Run outside an explicit transaction (CALL ... IN TRANSACTIONS).
// Params: $agent_id (string: must start with 'bench-').
// Returns: nothing.
CALL () {
  MATCH (n:Revision {agent_id: $agent_id}) RETURN n
  UNION ALL
  MATCH (n:Belief {agent_id: $agent_id}) RETURN n
  UNION ALL
  MATCH (n:Agent {id: $agent_id}) RETURN n
}
WITH n WHERE $agent_id STARTS WITH 'bench-'
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
