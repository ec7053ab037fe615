// Lists an agent's people, a page at a time.
// Params: $agent_id (string), $text (string or null: lower-case substring of the name or email),
//         $sort (string: 'relationship' = highest relationship value first, 'recent' = most
//         recently seen first, 'name' = by name), $skip (int), $limit (int).
// Returns: people (list of property maps), count (int, all matches). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  WHERE $text IS NULL OR p.name_key CONTAINS $text OR toLower(p.email) CONTAINS $text
  WITH p
  ORDER BY CASE WHEN $sort = 'relationship' THEN coalesce(p.relationship_value, 0.0) END DESC,
           CASE WHEN $sort = 'recent' THEN coalesce(p.last_seen, p.created_at) END DESC,
           p.name_key, p.created_at, p.id
  RETURN collect(properties(p)) AS matches
}
RETURN matches[$skip..$skip + $limit] AS people, size(matches) AS count
