// The hypotheses the supervisor proposed for the question: (Investigation)-[:TESTS]->(Hypothesis),
// status proposed, confidence 0.5 (nothing known either way).
// Params: $agent_id (string), $investigation_id (string), $hypotheses (list of maps: id,
//         ordinal (int), statement (string), embedding (list of floats or null)), $step_id
//         (string: the step that proposed them),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id).
// Returns: created (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
MATCH (step:ResearchStep {id: $step_id})
UNWIND $hypotheses AS hypothesis
CREATE (h:Hypothesis {id: hypothesis.id, agent_id: $agent_id, investigation_id: $investigation_id})
SET h.ordinal = hypothesis.ordinal,
    h.statement = hypothesis.statement,
    h.status = 'proposed',
    h.confidence = 0.5,
    h.searches = 0,
    h.embedding = hypothesis.embedding,
    h.embedding_model = CASE WHEN hypothesis.embedding IS NULL THEN null
                             ELSE $embedding_model END,
    h.created_at = datetime($now)
CREATE (i)-[:TESTS]->(h)
CREATE (step)-[:PROPOSED]->(h)
RETURN count(h) AS created
