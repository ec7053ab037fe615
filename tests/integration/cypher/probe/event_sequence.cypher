// Test probe: an agent's BeliefEvents and how many distinct sequence numbers they carry (equal
// when no two writers, in any process, took the same number).
// Params: $agent_id (string).
// Returns: events (int), distinct_seq (int).
MATCH (e:BeliefEvent {agent_id: $agent_id})
RETURN count(e) AS events, count(DISTINCT e.seq) AS distinct_seq
