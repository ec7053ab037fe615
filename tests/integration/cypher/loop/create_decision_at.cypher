// A decision as the loop records it (loop/decisions/create_decision), made at a given time, with
// no reasons or beliefs: past decisions for the context's decisions section.
// Params: $agent_id (string), $id (string), $description (string), $outcome (string),
//         $confidence (float), $created_at (datetime).
// Returns: id (string).
CREATE (d:Decision {id: $id, agent_id: $agent_id})
SET d.description = $description, d.outcome = $outcome, d.confidence = $confidence,
    d.proposed_confidence = $confidence, d.mode = 'autonomous', d.verb = 'note',
    d.created_at = $created_at
RETURN d.id AS id
