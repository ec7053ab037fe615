// What is already counted as evidence on each belief, so that research does not apply the same
// passage to it twice: the text of every piece of evidence on it, and the keys of the research
// passages applied to it (Evidence.passage_key, written by link_hypothesis_belief).
// Params: $agent_id (string), $belief_ids (list of strings).
// Returns: belief_id (string), texts (list of strings), passage_keys (list of strings).
//          No row for an unknown belief.
UNWIND $belief_ids AS belief_id
MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
OPTIONAL MATCH (e:Evidence {agent_id: $agent_id})-[:REINFORCES|CHALLENGES|CONCERNS]->(b)
RETURN b.id AS belief_id,
       collect(e.text) AS texts,
       [key IN collect(e.passage_key) WHERE key IS NOT NULL] AS passage_keys
