// Lists an agent's belief events in sequence order, optionally for one belief, after a sequence
// number (for paging or tailing).
// Params: $agent_id (string), $belief_id (string or null), $after_seq (int), $limit (int).
// Returns: events (list of event property maps, oldest first).
MATCH (e:BeliefEvent {agent_id: $agent_id})
WHERE e.seq > $after_seq AND ($belief_id IS NULL OR e.belief_id = $belief_id)
WITH e ORDER BY e.seq
LIMIT $limit
RETURN collect(properties(e)) AS events
