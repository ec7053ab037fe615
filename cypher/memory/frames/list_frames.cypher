// Lists an agent's frames in position order.
// Params: $agent_id (string).
// Returns: frames (list of property maps). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (f:Frame {agent_id: agent.id})
  WITH f ORDER BY f.position, f.key
  RETURN collect(properties(f)) AS frames
}
RETURN frames
