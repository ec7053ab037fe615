// Bench only: deletes everything a research bench agent owns (every node carrying its agent_id:
// corpus, investigations, beliefs, evidence ...) and the Agent, in batches. Run outside an
// explicit transaction (CALL ... IN TRANSACTIONS).
// Params: $agent_id (string: an agent whose name starts with 'bench-research').
// Returns: nothing.
MATCH (a:Agent {id: $agent_id}) WHERE a.name STARTS WITH 'bench-research'
CALL (a) {
  MATCH (n) WHERE n.agent_id = a.id RETURN n
  UNION ALL
  RETURN a AS n
}
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
