// Bench only: bulk-creates one batch of an agent's beliefs with every property a pack's belief
// carries that a listing reads (statement, lexical_terms, token_count, a 384-float embedding
// stored as the loader stores it (setNodeVectorProperty),
// created_at one second apart), so that projecting a belief costs what it costs in a real agent.
// Params: $agent_id (string), $beliefs (list of maps: id, statement, category, strength,
//         tension, importance, lexical_terms, token_count, embedding (float32 VECTOR),
//         offset_s (int)).
// Returns: created (int).
UNWIND $beliefs AS row
CREATE (b:Belief {id: row.id, agent_id: $agent_id})
SET b.statement = row.statement,
    b.category = row.category,
    b.domain = 'bench',
    b.strength = toFloat(row.strength),
    b.prior_strength = toFloat(row.strength),
    b.tension = toFloat(row.tension),
    b.importance = toFloat(row.importance),
    b.degree = 0,
    b.is_core = false,
    b.is_immutable = false,
    b.is_active = true,
    b.is_distrusted = false,
    b.is_invalidated = false,
    b.reinforcement_count = 0,
    b.source = 'pack',
    b.lexical_terms = row.lexical_terms,
    b.token_count = row.token_count,
    b.embedding_pending = false,
    b.created_at = datetime('2026-01-01T00:00:00Z') + duration({seconds: row.offset_s})
WITH b, row
CALL db.create.setNodeVectorProperty(b, 'embedding', toFloatList(row.embedding))
RETURN count(b) AS created
