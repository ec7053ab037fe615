// Reads an agent's working memory in one round trip: open tasks (newest first), unexpired notes
// (priority, then newest), recently seen people, salient entities and strong active beliefs.
// Params: $agent_id (string), $now (datetime: notes expiring at or before it are left out),
//         $limits (map of ints: notes, people, entities, beliefs),
//         $belief_floor (float: the least strength of a belief shown),
//         $open_states (list of strings: the states of a task still open).
// Returns: tasks, notes, people, entities (lists of property maps, their times as toString:
//          read by app/graph/times.py, as the driver builds a datetime in ~200 µs),
//          beliefs (list of {id, statement, category, domain, strength, importance}).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (t:Task {agent_id: agent.id})
  WHERE t.state IN $open_states
  WITH t ORDER BY t.started_at DESC, t.id DESC
  RETURN collect(t {.*, started_at: toString(t.started_at), ended_at: toString(t.ended_at),
                    history_at: [at IN t.history_at | toString(at)]}) AS tasks
}
CALL (agent) {
  MATCH (n:Note {agent_id: agent.id})
  WHERE n.expires_at > $now
  WITH n ORDER BY n.priority DESC, n.created_at DESC, n.id
  LIMIT $limits.notes
  RETURN collect(n {.*, created_at: toString(n.created_at),
                    expires_at: toString(n.expires_at)}) AS notes
}
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  WITH p ORDER BY coalesce(p.last_seen, p.created_at) DESC, p.id
  LIMIT $limits.people
  RETURN collect(p {.*, created_at: toString(p.created_at),
                    last_seen: toString(p.last_seen)}) AS people
}
CALL (agent) {
  MATCH (e:Entity {agent_id: agent.id})
  WITH e ORDER BY e.last_seen DESC, e.mention_count DESC, e.id
  LIMIT $limits.entities
  RETURN collect(e {.*, first_seen: toString(e.first_seen),
                    last_seen: toString(e.last_seen)}) AS entities
}
CALL (agent) {
  // Served by the (agent_id, is_active, strength) index (V0015) in index order: reads only the
  // strongest few, not every active belief of the agent.
  MATCH (b:Belief {agent_id: agent.id, is_active: true})
  WHERE b.strength >= $belief_floor
  WITH b ORDER BY b.agent_id DESC, b.is_active DESC, b.strength DESC
  LIMIT $limits.beliefs
  WITH b ORDER BY b.strength DESC, b.importance DESC, b.id
  RETURN collect(b {.id, .statement, .category, .domain, .strength, .importance}) AS beliefs
}
RETURN tasks, notes, people, entities, beliefs
