// Bench setup: $count beliefs of an agent without a vector (bench/vector_write_lock.py).
// Params: $agent_id (string), $count (int).
// Returns: id (string), one row per belief.
UNWIND range(1, $count) AS i
CREATE (b:Belief {id: randomUUID(), agent_id: $agent_id, statement: 'Bench belief ' + i,
                  is_active: true, strength: 0.5, embedding_pending: true})
RETURN b.id AS id
