// Guide, "How a tool earned autonomy", drawn: the most-called tool, the belief about it, each
// call (Action) of it with the approval a person answered and the belief the call MOVED (at most
// 25 calls, so at most 52 nodes).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per call: call :: PATH (action)-[:CALLED]->(tool), moved :: PATH (null: the
// call moved no belief), approval :: PATH (null: nobody was asked)
MATCH (t:Tool {agent_id: $agent_id})
WITH t, COUNT { (:Action)-[:CALLED]->(t) } AS calls
WHERE calls > 0
WITH t ORDER BY calls DESC, t.qualified_name LIMIT 1
MATCH call = (a:Action)-[:CALLED]->(t)
WITH call, a ORDER BY a.created_at LIMIT 25
OPTIONAL MATCH moved = (a)-[:MOVED]->(:Belief)
OPTIONAL MATCH approval = (:Approval)-[:FOR_ACTION]->(a)
RETURN call, moved, approval
