// Test probe: the episodes of one session of an agent with their order and NEXT edges.
// Params: $agent_id (string), $session (string).
// Returns: id, external_id, seq, search_text, embedding_scheme, embedding (list of floats),
//          next (list of the ids it has a NEXT edge to), previous (the same, incoming).
MATCH (e:Episode {agent_id: $agent_id, session_key: $session})
RETURN e.id AS id, e.external_id AS external_id, e.seq AS seq, e.search_text AS search_text,
       e.embedding_scheme AS embedding_scheme, toFloatList(e.embedding) AS embedding,
       [(e)-[:NEXT]->(n) | n.id] AS next, [(p)-[:NEXT]->(e) | p.id] AS previous
ORDER BY e.occurred_at, e.seq
