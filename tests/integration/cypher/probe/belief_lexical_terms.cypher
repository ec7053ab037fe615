// Probe: an agent's beliefs with their statement and the words they are scored by.
// Params: $agent_id (string).
// Returns: id, statement (string), lexical_terms (list of strings or null),
//          token_count (int or null).
MATCH (b:Belief {agent_id: $agent_id})
RETURN b.id AS id, b.statement AS statement, b.lexical_terms AS lexical_terms,
       b.token_count AS token_count
ORDER BY id
