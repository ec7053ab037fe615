// Test probe: what was written about one belief: its Evidence ids and the evidence ids its
// BeliefEvents name (an id named twice appears twice).
// Params: $agent_id (string), $belief_id (string).
// Returns: evidence (list of ids), evented (list of ids).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
RETURN COLLECT { MATCH (ev:Evidence {agent_id: $agent_id, belief_id: $belief_id})
                 RETURN ev.id } AS evidence,
       COLLECT { MATCH (e:BeliefEvent)-[:OF]->(b) UNWIND coalesce(e.evidence_ids, []) AS id
                 RETURN id } AS evented
