// Takes the agent's write lock for the rest of the transaction (every belief write does this
// first, so concurrent writers to one mind serialise and no update is lost).
// Params: $agent_id (string).
// Returns: agent_id (string). No row if the agent does not exist.
MATCH (a:Agent {id: $agent_id})
SET a.write_count = coalesce(a.write_count, 0) + 1
RETURN a.id AS agent_id
