// Guide, "What it holds most firmly": the most firmly held active beliefs that other beliefs
// support (by their strength where they hold most strongly: their default, or a context of their
// own), with what holds each up (SUPPORTS weights).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns at most 8 rows, most firmly held first:
//   belief :: STRING  its statement
//   strength :: FLOAT  its default strength, 0..1, two decimals
//   strongest_context :: STRING  the context it holds most strongly in, with that strength
//     (null: it holds in no context of its own)
//   category :: STRING  ethical / relational / contextual / aesthetic
//   supported_by :: INTEGER  active beliefs that SUPPORT it
//   strongest_supports :: LIST<STRING>  the three heaviest, each with its weight
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.is_active AND EXISTS { (:Belief {is_active: true})-[:SUPPORTS]->(b) }
OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c:Context)
WITH b, h, c ORDER BY h.strength DESC, c.name
WITH b, head(collect(c.name + ' ' + toString(round(h.strength, 2)))) AS strongest_context,
     coalesce(max(h.strength), 0.0) AS in_context
WITH b, strongest_context,
     CASE WHEN in_context > b.strength THEN in_context ELSE b.strength END AS firmness,
     COUNT { (:Belief {is_active: true})-[:SUPPORTS]->(b) } AS supported_by
ORDER BY firmness DESC, supported_by DESC, b.id
LIMIT 8
MATCH (s:Belief {is_active: true})-[w:SUPPORTS]->(b)
WITH b, strongest_context, firmness, supported_by, s, w ORDER BY w.weight DESC
WITH b, strongest_context, firmness, supported_by,
     collect(toString(round(w.weight, 2)) + ' · ' + s.statement) AS supports
RETURN b.statement AS belief,
       round(b.strength, 2) AS strength,
       strongest_context,
       b.category AS category,
       supported_by,
       supports[..3] AS strongest_supports
ORDER BY firmness DESC, supported_by DESC, belief
