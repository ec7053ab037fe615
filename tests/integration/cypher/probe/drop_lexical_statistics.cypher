// Probe: removes an agent's lexical statistics, as if its episodes predated them.
// Params: $agent_id (string).
// Returns: deleted (int).
MATCH (n) WHERE (n:LexicalCorpus OR n:LexicalTerm) AND n.agent_id = $agent_id
DETACH DELETE n
RETURN count(*) AS deleted
