// The beliefs the agent already holds about tools of these qualified names (a connection removed
// and added again keeps what it learned about its tools).
// Params: $agent_id (string), $qualified_names (list of strings).
// Returns: qualified_name (string), belief_id (string or null); one row per known tool.
MATCH (t:Tool {agent_id: $agent_id})
WHERE t.qualified_name IN $qualified_names
RETURN t.qualified_name AS qualified_name, t.belief_id AS belief_id
