// Adds a batch of documents to the agent's lexical statistics (created when absent): the
// caller holds the agent's lock, so the counts are not raced.
// Params: $agent_id (string), $docs (int: documents added), $length (int: their tokens),
//         $terms (list of maps: term (string), df (int: added documents holding it)).
// Returns: docs (int), length (int): the corpus after the addition.
MERGE (c:LexicalCorpus {id: $agent_id})
  ON CREATE SET c.agent_id = $agent_id, c.docs = 0, c.length = 0
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
