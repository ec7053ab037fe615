// Most contested beliefs: by tension, then open contradictions, then challenging evidence.
// A belief with no tension, no open contradiction and no challenging evidence is not contested
// and not listed.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', limit: 20, include_inactive: false}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $limit :: INTEGER NOT NULL  most beliefs returned (default 20)
//   $include_inactive :: BOOLEAN NOT NULL  also superseded and deactivated beliefs (default false)
// Returns one row per contested belief, most contested first (no rows: nothing contested):
//   belief_id :: STRING
//   statement :: STRING
//   category :: STRING
//   is_active :: BOOLEAN
//   tension :: FLOAT  current tension (revision at the threshold, 0.7 by default)
//   strength :: FLOAT
//   open_contradictions :: INTEGER  CONTRADICTS edges with status 'open' to active beliefs
//   challenges :: INTEGER  pieces of evidence that CHALLENGE it
//   reinforcements :: INTEGER  pieces of evidence that REINFORCE it
//   last_challenged :: DATETIME  when evidence last contradicted it (null: never)
MATCH (b:Belief {agent_id: $agent_id})
WHERE $include_inactive OR b.is_active
WITH b,
     COUNT { (b)-[c:CONTRADICTS]-(other:Belief) WHERE c.status = 'open' AND other.is_active }
       AS open_contradictions,
     COUNT { (:Evidence)-[:CHALLENGES]->(b) } AS challenges,
     COUNT { (:Evidence)-[:REINFORCES]->(b) } AS reinforcements
WHERE b.tension > 0 OR open_contradictions > 0 OR challenges > 0
RETURN b.id AS belief_id,
       b.statement AS statement,
       b.category AS category,
       b.is_active AS is_active,
       b.tension AS tension,
       b.strength AS strength,
       open_contradictions,
       challenges,
       reinforcements,
       b.last_challenged AS last_challenged
ORDER BY tension DESC, open_contradictions DESC, challenges DESC, belief_id
LIMIT toInteger($limit)
