// Guide, "What it holds most firmly": the strongest active beliefs that other beliefs support,
// with what holds each up (SUPPORTS weights).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns at most 8 rows, strongest first:
//   belief :: STRING  its statement
//   strength :: FLOAT  0..1, two decimals
//   category :: STRING  ethical / relational / contextual / aesthetic
//   strongest_context :: STRING  the context it holds most strongly in, with that strength
//     (null: it holds in none of its own)
//   supported_by :: INTEGER  active beliefs that SUPPORT it
//   strongest_supports :: LIST<STRING>  the three heaviest, each with its weight
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active AND EXISTS { (:Belief {is_active: true})-[:SUPPORTS]->(b) }
WITH b ORDER BY b.strength DESC, b.importance DESC, b.id LIMIT 8
MATCH (s:Belief {is_active: true})-[w:SUPPORTS]->(b)
WITH b, s, w ORDER BY w.weight DESC
WITH b, collect(toString(round(w.weight, 2)) + ' · ' + s.statement) AS supports
OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c:Context)
WITH b, supports, h, c ORDER BY h.strength DESC, c.name
WITH b, supports, head(collect(c.name + ' ' + toString(round(h.strength, 2)))) AS strongest_context
RETURN b.statement AS belief,
       round(b.strength, 2) AS strength,
       b.category AS category,
       strongest_context,
       size(supports) AS supported_by,
       supports[..3] AS strongest_supports
ORDER BY strength DESC, supported_by DESC, belief
