// Whether an agent exists (one index look-up; agents/store/get_agent also counts its beliefs).
// Params: $agent_id (string).
// Returns: id (string). No row if the agent does not exist.
MATCH (a:Agent {id: $agent_id})
RETURN a.id AS id
