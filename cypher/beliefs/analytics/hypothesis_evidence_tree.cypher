// Evidence tree of one hypothesis: every source an investigation judged against it, with stance.
// For each source: its stance and confidence, whether it still counts (a source that lost a
// conflict about the hypothesis does not), the conflicts it took part in and how they ended,
// and the beliefs the decided hypothesis created, reinforced or challenged.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', hypothesis_id: null}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $hypothesis_id :: STRING  the hypothesis, null for the most recently proposed one
// Returns one row per judged source, supporting first, most confident first (no rows: no
// hypothesis, or nothing judged yet):
//   hypothesis_id :: STRING
//   hypothesis :: STRING  its statement
//   hypothesis_status :: STRING  proposed, validating, confirmed, refuted or undecided
//   question :: STRING  the investigation's question
//   stance :: STRING  supports, contradicts or neutral
//   confidence :: FLOAT  the stance's confidence
//   counts :: BOOLEAN  false when the source lost a resolved conflict about the hypothesis
//   source_number :: INTEGER  its citation number in the report
//   source_title :: STRING
//   source_origin :: STRING
//   source_text :: STRING
//   reason :: STRING  why the judge decided so
//   conflicts :: LIST<MAP>  {status, basis, resolution, won} of the conflicts it took part in
//   beliefs :: LIST<MAP>  {belief_id, statement, effect} the hypothesis informed
MATCH (h:Hypothesis {agent_id: $agent_id})
WHERE $hypothesis_id IS NULL OR h.id = $hypothesis_id
WITH h ORDER BY h.created_at DESC LIMIT 1
MATCH (i:Investigation)-[:TESTS]->(h)
MATCH (e:ResearchEvidence {hypothesis_id: h.id})-[:FROM]->(s:Source)
WITH h, i, e, s,
     [(c:Conflict)-[:BETWEEN]->(s) WHERE c.hypothesis_id = h.id |
       {status: c.status, basis: c.basis, resolution: c.resolution,
        won: c.winner_source_id = s.id}] AS conflicts,
     [(h)-[r:INFORMED]->(b:Belief) | {belief_id: b.id, statement: b.statement, effect: r.effect}]
       AS beliefs
RETURN h.id AS hypothesis_id,
       h.statement AS hypothesis,
       h.status AS hypothesis_status,
       i.question AS question,
       e.stance AS stance,
       e.confidence AS confidence,
       NOT any(c IN conflicts WHERE c.status = 'resolved' AND NOT c.won) AS counts,
       s.number AS source_number,
       s.title AS source_title,
       s.origin AS source_origin,
       s.text AS source_text,
       e.reason AS reason,
       conflicts,
       beliefs
ORDER BY CASE e.stance WHEN 'supports' THEN 0 WHEN 'contradicts' THEN 1 ELSE 2 END,
         confidence DESC, source_number
