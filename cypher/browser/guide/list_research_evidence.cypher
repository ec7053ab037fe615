// Guide, "An investigation's evidence": the agent's latest investigation, each source it found
// and how the source bears on the hypothesis, with the conflicts between sources and how they
// were settled.
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per judged source, by source number (none: no investigation yet):
//   question :: STRING  the investigation's question
//   verdict :: STRING  its verdict (null while running)
//   source :: INTEGER  the source's number (as cited in the report)
//   title :: STRING  the source's title
//   published :: DATE  when it was published (null: unknown)
//   stance :: STRING  supports / contradicts / neutral
//   confidence :: FLOAT  the judge's confidence, two decimals
//   conflict :: STRING  how a conflict it was part of was resolved (null: none)
MATCH (i:Investigation {agent_id: $agent_id})
WITH i ORDER BY i.started_at DESC, i.id LIMIT 1
MATCH (i)-[:FOUND]->(s:Source)<-[:FROM]-(e:ResearchEvidence)
OPTIONAL MATCH (i)-[:HAS_CONFLICT]->(c:Conflict)-[:BETWEEN]->(s)
RETURN i.question AS question,
       i.verdict AS verdict,
       s.number AS source,
       s.title AS title,
       s.published AS published,
       e.stance AS stance,
       round(e.confidence, 2) AS confidence,
       c.resolution AS conflict
ORDER BY source
LIMIT 30
