// Lists an agent's active frames in position order (a frame a pack version dropped is retired:
// docs/packs.md §3; one stored without the flag is active).
// Params: $agent_id (string).
// Returns: frames (list of property maps, installed_at and updated_at as toString: read by
//          app/graph/times.py, as the driver builds a datetime in ~200 µs). No row for an
//          unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (f:Frame {agent_id: agent.id})
    WHERE coalesce(f.is_active, true)
  WITH f ORDER BY f.position, f.key
  RETURN collect(f {.*, installed_at: toString(f.installed_at),
                     updated_at: toString(f.updated_at)}) AS frames
}
RETURN frames
