// Bench only: bulk-creates one batch of an agent's beliefs with every property
// cypher/beliefs/store/create_belief.cypher sets (no creation events: a bulk load, like a pack).
// Params: $agent_id (string), $beliefs (list of maps: id, statement, category, strength,
//         importance, is_core, is_invalidated).
// Returns: created (int).
UNWIND $beliefs AS row
CREATE (b:Belief {id: row.id, agent_id: $agent_id})
SET b.statement = row.statement,
    b.category = row.category,
    b.strength = toFloat(row.strength),
    b.tension = 0.0,
    b.importance = toFloat(row.importance),
    b.is_core = row.is_core,
    b.is_immutable = false,
    b.is_active = true,
    b.is_distrusted = false,
    b.is_invalidated = row.is_invalidated,
    b.reinforcement_count = 0,
    b.source = 'pack',
    b.created_at = datetime()
RETURN count(b) AS created
