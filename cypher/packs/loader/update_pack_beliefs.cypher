// Gives a pack's beliefs the category, domain, importance and core flag a new version gives them
// (their statements unchanged, or just superseded), each change a BeliefEvent (kind 'pack',
// action 'updated', strength and tension unchanged, a note naming what changed and the version),
// as a manual edit records one. Sequence numbers follow the agent's counter, reserved here. The
// dissatisfaction sums are recomputed once after the whole load.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $m (map: mechanics), $rows (list of {id, category, domain (string
//         or null), importance (float), is_core (boolean), note (string)}).
// Returns: updated (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
WITH agent, agent.event_seq AS base
SET agent.event_seq = base + size($rows)
WITH base
UNWIND range(0, size($rows) - 1) AS index
WITH base, index, $rows[index] AS row
MATCH (b:Belief {agent_id: $agent_id, id: row.id})
SET b.category = row.category,
    b.domain = row.domain,
    b.importance = toFloat(row.importance),
    b.is_core = row.is_core,
    b.is_invalidated = b.strength < $m.thresholds[row.category] - $m.invalidation_tolerance
CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'pack',
                      action: 'updated', seq: base + index + 1,
                      old_strength: b.strength, new_strength: b.strength,
                      old_tension: b.tension, new_tension: b.tension, at: datetime($now),
                      note: row.note})-[:OF]->(b)
RETURN count(b) AS updated
