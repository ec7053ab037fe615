// How many stored vectors each model made, per agent and label, and how many replacements a
// reindex has stored already (start-up check and `credence embed reindex`'s progress).
// Params: $agent_id (string or null: every agent).
// Returns: agent_id (string), label (string), model (string or null: written before vectors
//          recorded their model), vectors (int), next_model (string or null), replaced (int).
CYPHER 25
UNWIND ['Belief', 'Rule', 'Episode', 'CorpusPassage', 'Hypothesis', 'Tool'] AS label
MATCH (n:$(label))
WHERE n.embedding IS NOT NULL AND ($agent_id IS NULL OR n.agent_id = $agent_id)
RETURN n.agent_id AS agent_id, label, n.embedding_model AS model, count(n) AS vectors,
       n.embedding_next_model AS next_model, count(n.embedding_next) AS replaced
