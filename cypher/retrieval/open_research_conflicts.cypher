// The agent's conflicts between research sources that are not settled (open, or unresolvable:
// the sources still disagree), for the context: the hypothesis, both sources and the
// investigation; closest to the query first when an embedding is given, then newest.
// Params: $agent_id (string), $embedding (list of floats or null), $k (int),
//         $embedding_model (string: the model that made $embedding; only vectors it made are compared).
// Returns one record, rows: a list of maps (one record, not one per row:
//          GraphClient.read_collected), each with id, status, hypothesis, resolution (string or
//          null), investigation_id, question, sources (list of maps: title, origin, text, stance),
//          score (float or null), detected_at.
MATCH (c:Conflict {agent_id: $agent_id})
WHERE c.status IN ['open', 'unresolvable']
MATCH (c)-[:ABOUT]->(h:Hypothesis)
MATCH (i:Investigation {id: c.investigation_id})
WITH c, h, i,
     CASE WHEN $embedding IS NULL OR h.embedding IS NULL
               OR h.embedding_model <> $embedding_model THEN null
          ELSE vector.similarity.cosine(h.embedding, $embedding) END AS score
ORDER BY coalesce(score, -2.0) DESC, c.detected_at DESC
LIMIT $k
CALL (c) {
  MATCH (c)-[:BETWEEN]->(s:Source)
  OPTIONAL MATCH (e:ResearchEvidence {hypothesis_id: c.hypothesis_id, source_id: s.id})
  RETURN collect({title: s.title, origin: s.origin, text: s.text, stance: e.stance}) AS sources
}
RETURN collect({
  id: c.id, status: c.status, hypothesis: h.statement, resolution: c.resolution,
  investigation_id: i.id, question: i.question, sources: sources, score: score,
  detected_at: c.detected_at
}) AS rows
