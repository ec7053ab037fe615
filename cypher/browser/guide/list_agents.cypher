// Guide, when the agent it was asked for is missing: the agents this database holds.
// Params: none.
// Returns one row per agent, oldest first (at most 25):
//   name :: STRING, id :: STRING, beliefs :: INTEGER (its active beliefs)
MATCH (a:Agent)
WITH a ORDER BY a.created_at, a.id LIMIT 25
RETURN a.name AS name, a.id AS id,
       COUNT { (b:Belief {agent_id: a.id}) WHERE b.is_active } AS beliefs
