// Deletes the Agent node itself, last, once delete_agent_nodes has removed everything else
// (so an interrupted deletion leaves the agent listed, and deleting it again finishes the job).
// Params: $agent_id (string).
// Returns: deleted (int: 1, or 0 when there was no such agent).
MATCH (a:Agent {id: $agent_id})
DETACH DELETE a
RETURN count(*) AS deleted
