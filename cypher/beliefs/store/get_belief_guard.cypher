// What an edit of a belief checks before it writes (app/beliefs/store.py update_belief): read
// inside the edit's own transaction, after graph/agent_scope/lock_agent, so no writer (every
// one that deactivates a belief takes the same lock) can deactivate it between this read and
// the edit's write.
// Params: $agent_id (string), $belief_id (string).
// Returns: is_active (boolean), is_immutable (boolean). No row if unknown.
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
RETURN b.is_active AS is_active, coalesce(b.is_immutable, false) AS is_immutable
