// Deletes the Agent node itself and its lock node, last, in the transaction whose
// delete_agent_nodes found fewer than a batch left (so an interrupted deletion leaves the agent
// listed, and deleting it again finishes the job).
// Params: $agent_id (string).
// Returns: deleted (int: 1; the lock node is bookkeeping, not counted; no row when there was no
//          such agent).
MATCH (a:Agent {id: $agent_id})
OPTIONAL MATCH (l:AgentLock {of_agent: $agent_id})
DETACH DELETE a, l
RETURN count(a) AS deleted
