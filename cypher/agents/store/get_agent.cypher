// Reads one agent with a few counts.
// Params: $agent_id (string).
// Returns: agent (map of properties), beliefs (int, active), revisions (int). No row if unknown.
MATCH (a:Agent {id: $agent_id})
CALL (a) {
  OPTIONAL MATCH (b:Belief {agent_id: a.id}) WHERE b.is_active
  RETURN count(b) AS beliefs
}
CALL (a) {
  OPTIONAL MATCH (r:Revision {agent_id: a.id})
  RETURN count(r) AS revisions
}
RETURN properties(a) AS agent, beliefs, revisions
