// The investigations whose decided hypotheses informed a belief (research mode:
// (Investigation)-[:TESTS]->(Hypothesis)-[:INFORMED {effect}]->(Belief), docs/research.md),
// newest first, each with the sources of the evidence it applied to the belief.
// Params: $agent_id (string), $belief_id (string), $limit (int).
// Returns: investigation_id (string), question (string), hypothesis_id (string),
//   hypothesis (string: its statement), effect (string: created, reinforced or challenged),
//   at (datetime or null), evidence (int: the pieces it applied to the belief),
//   sources (list of maps: title, origin, each string or null).
MATCH (:Belief {agent_id: $agent_id, id: $belief_id})<-[r:INFORMED]-(h:Hypothesis {agent_id: $agent_id})
MATCH (i:Investigation {agent_id: $agent_id})-[:TESTS]->(h)
OPTIONAL MATCH (e:Evidence {agent_id: $agent_id})-[:FROM_RESEARCH]->(h)
  WHERE EXISTS { (e)-[:REINFORCES|CHALLENGES|CONCERNS]->(:Belief {agent_id: $agent_id, id: $belief_id}) }
WITH i, h, r, e ORDER BY e.seq
WITH i, h, r, collect(e) AS pieces
RETURN i.id AS investigation_id, i.question AS question, h.id AS hypothesis_id,
       h.statement AS hypothesis, r.effect AS effect, r.at AS at, size(pieces) AS evidence,
       [e IN pieces | {title: e.source_title, origin: e.source_origin}] AS sources
ORDER BY at DESC, investigation_id
LIMIT $limit
