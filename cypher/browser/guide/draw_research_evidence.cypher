// Guide, "An investigation's evidence", drawn: the latest investigation, its hypothesis, the
// sources with their stance (ResearchEvidence) and the conflicts between sources with the
// evidence that decided them (at most 40 paths).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns paths: path :: PATH
MATCH (i:Investigation {agent_id: $agent_id})
WITH i ORDER BY i.started_at DESC, i.id LIMIT 1
CALL (i) {
  MATCH path = (i)-[:TESTS]->(:Hypothesis)<-[:ABOUT]-(:ResearchEvidence)-[:FROM]->(:Source)
  RETURN path
  UNION
  MATCH path = (i)-[:HAS_CONFLICT]->(:Conflict)-[:BETWEEN|DECIDED_BY]->()
  RETURN path
}
RETURN path
LIMIT 40
