// Deletes the Agent node itself, last, in the transaction whose delete_agent_nodes found fewer
// than a batch left (so an interrupted deletion leaves the agent listed, and deleting it again
// finishes the job).
// Params: $agent_id (string).
// Returns: deleted (int: 1, or 0 when there was no such agent).
MATCH (a:Agent {id: $agent_id})
DETACH DELETE a
RETURN count(*) AS deleted
