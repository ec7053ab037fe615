// The agent's investigations, newest first, without their reports (a page of them).
// Params: $agent_id (string), $status (string or null: any), $skip (int), $limit (int).
// Returns: investigation (map of properties, report left out), total (int: all that match).
MATCH (i:Investigation {agent_id: $agent_id})
WHERE $status IS NULL OR i.status = $status
WITH i ORDER BY i.started_at DESC, i.id
WITH collect(i) AS matching
UNWIND matching[$skip..$skip + $limit] AS i
RETURN i {.*, report: null} AS investigation, size(matching) AS total
