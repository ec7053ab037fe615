// Edits an agent's name and identity goal (a null keeps the value). The terminal creed is never
// written here, nor by any other query after the agent's creation.
// Params: $agent_id (string), $changes (map: name (string or null), identity_goal (string or null)).
// Returns: id (string). No row for an unknown agent.
MATCH (a:Agent {id: $agent_id})
SET a.name = coalesce($changes.name, a.name),
    a.identity_goal = coalesce($changes.identity_goal, a.identity_goal)
RETURN a.id AS id
