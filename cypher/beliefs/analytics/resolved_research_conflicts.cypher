// Conflicts an investigation found between its sources, and how each was settled.
// For each conflict: the hypothesis, the supporting and the contradicting source, its status
// (open, resolved, unresolvable), the basis (date, authority, agreement, content) and the
// resolution text, the source trusted and the decisive evidence, and the step that settled it.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', investigation_id: null}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $investigation_id :: STRING  the investigation, null for the most recently started one
// Returns one row per conflict, in the order they were found (no rows: no conflict):
//   investigation_id :: STRING
//   question :: STRING
//   hypothesis :: STRING
//   status :: STRING  open, resolved or unresolvable
//   basis :: STRING  date, authority, agreement, content, none (null while open)
//   resolution :: STRING  why (null while open)
//   supporting_source :: STRING  "[n] title" of the source that supports the hypothesis
//   contradicting_source :: STRING  "[n] title" of the source that contradicts it
//   trusted_source :: STRING  "[n] title" of the source trusted (null: none)
//   decisive_evidence :: STRING  the trusted source's stance and confidence (null: none)
//   resolved_by_step :: INTEGER  ordinal of the resolve step (null while open)
//   detected_at :: DATETIME
MATCH (i:Investigation {agent_id: $agent_id})
WHERE $investigation_id IS NULL OR i.id = $investigation_id
WITH i ORDER BY i.started_at DESC LIMIT 1
MATCH (i)-[:HAS_CONFLICT]->(c:Conflict)-[:ABOUT]->(h:Hypothesis)
MATCH (first:Source {id: c.first_source_id})
MATCH (second:Source {id: c.second_source_id})
OPTIONAL MATCH (winner:Source {id: c.winner_source_id})
OPTIONAL MATCH (c)-[:DECIDED_BY]->(e:ResearchEvidence)
OPTIONAL MATCH (step:ResearchStep)-[:RESOLVED]->(c)
RETURN i.id AS investigation_id,
       i.question AS question,
       h.statement AS hypothesis,
       c.status AS status,
       c.basis AS basis,
       c.resolution AS resolution,
       '[' + toString(first.number) + '] ' + first.title AS supporting_source,
       '[' + toString(second.number) + '] ' + second.title AS contradicting_source,
       CASE WHEN winner IS NULL THEN null
            ELSE '[' + toString(winner.number) + '] ' + winner.title END AS trusted_source,
       CASE WHEN e IS NULL THEN null
            ELSE e.stance + ' ' + toString(round(e.confidence, 2)) END AS decisive_evidence,
       step.ordinal AS resolved_by_step,
       c.detected_at AS detected_at
ORDER BY detected_at, c.id
