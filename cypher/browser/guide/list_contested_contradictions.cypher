// Guide, "The most contested belief": the active belief with the most open contradictions (then
// the most tension, then the most challenging evidence) and each belief that contradicts it.
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per contradiction of that belief, strongest first (none: nothing contested):
//   contested :: STRING  the contested belief's statement
//   tension :: FLOAT  its tension (revision at 0.7 by default), two decimals
//   learned_from :: LIST<STRING>  who taught it, with their authority (empty: a pack's or birth's)
//   contradicted_by :: STRING  the other belief's statement
//   other_tension :: FLOAT  the other belief's tension, two decimals
//   other_is_active :: BOOLEAN  false: the other belief was since superseded
//   contradiction :: FLOAT  the CONTRADICTS edge's strength
//   status :: STRING  open / resolved
//   resolution :: STRING  how it was settled (null while open)
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active
WITH b,
     COUNT { (b)-[c:CONTRADICTS]-(o:Belief) WHERE c.status = 'open' AND o.is_active } AS open,
     COUNT { (:Evidence)-[:CHALLENGES]->(b) } AS challenges
WHERE open > 0 OR b.tension > 0 OR challenges > 0
WITH b ORDER BY open DESC, b.tension DESC, challenges DESC, b.id LIMIT 1
WITH b, COLLECT { MATCH (b)-[:LEARNED_FROM]->(p:Person)
                  RETURN p.name + ' ' + toString(round(p.authority, 2)) } AS learned_from
MATCH (b)-[c:CONTRADICTS]-(other:Belief)
RETURN b.statement AS contested,
       round(b.tension, 2) AS tension,
       learned_from,
       other.statement AS contradicted_by,
       round(other.tension, 2) AS other_tension,
       other.is_active AS other_is_active,
       round(c.strength, 2) AS contradiction,
       c.status AS status,
       c.resolution AS resolution
ORDER BY status DESC, contradiction DESC, contradicted_by
LIMIT 20
