// Current strength, tension and context strengths of every belief of an agent, with the
// SUPPORTS edges into it (for replay checks).
// Params: $agent_id (string).
// Returns: states (list of {id, strength, tension, is_active, is_distrusted,
//          contexts: list of {name, strength}, supporters: list of {id, weight}: every
//          belief with a SUPPORTS edge into it, active or not}).
MATCH (b:Belief {agent_id: $agent_id})
OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c:Context)
WITH b, collect(CASE WHEN c IS NULL THEN null ELSE {name: c.name, strength: h.strength} END)
       AS contexts
RETURN collect({id: b.id, strength: b.strength, tension: b.tension, is_active: b.is_active,
                is_distrusted: b.is_distrusted, contexts: contexts,
                supporters: [(s:Belief)-[r:SUPPORTS]->(b) | {id: s.id, weight: r.weight}]})
         AS states
