// Test probe: where a learned belief came from.
// Params: $agent_id (string), $belief_id (string).
// Returns: episode_id, person (name or null), kind, strength, events (int: its BeliefEvents).
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})-[:LEARNED_FROM]->(e:Episode)
MATCH (e)-[:ABOUT]->(b)
OPTIONAL MATCH (b)-[:LEARNED_FROM]->(p:Person)
RETURN e.id AS episode_id, p.name AS person, b.learned_kind AS kind, b.strength AS strength,
       COUNT { (:BeliefEvent)-[:OF]->(b) } AS events
