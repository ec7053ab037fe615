// Takes the agent's write lock for the rest of the transaction (every belief write does this
// first, so concurrent writers to one mind serialise and no update is lost). An agent being
// deleted (see lock_agent_for_deletion) takes no more writes.
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist or is being deleted.
MATCH (a:Agent {id: $agent_id})
WHERE a.deleting IS NULL
SET a.write_count = coalesce(a.write_count, 0) + 1
RETURN a.id AS agent_id
