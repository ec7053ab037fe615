// How many investigations of the agent match (for a page that is empty).
// Params: $agent_id (string), $status (string or null: any).
// Returns: total (int).
MATCH (i:Investigation {agent_id: $agent_id})
WHERE $status IS NULL OR i.status = $status
RETURN count(i) AS total
