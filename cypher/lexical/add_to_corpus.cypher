// Adds a batch of documents to the agent's lexical statistics when they exist (the common case of
// lexical/add_statistics, in one round trip without the lexical/find_corpus before it): the
// caller holds the agent's lock, so the counts are not raced. No row: the agent has no
// statistics yet (nothing was added; app/memory/lexical_stats.py builds them from the stored
// episodes, then adds the batch).
// Params: $agent_id (string), $docs (int: documents added), $length (int: their tokens),
//         $terms (list of maps: term (string), df (int: added documents holding it)).
// Returns: docs (int), length (int): the corpus after the addition.
MATCH (c:LexicalCorpus {id: $agent_id})
SET c.docs = c.docs + $docs, c.length = c.length + $length
WITH c
CALL (c) {
  UNWIND $terms AS row
  MERGE (t:LexicalTerm {id: $agent_id + '|' + row.term})
    ON CREATE SET t.agent_id = $agent_id, t.term = row.term, t.df = 0
  SET t.df = t.df + row.df
  RETURN count(*) AS terms
}
RETURN c.docs AS docs, c.length AS length
