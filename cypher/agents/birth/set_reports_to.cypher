// Writes reporting lines between an agent's people (enrichment at birth): one REPORTS_TO edge
// per line, merged, so writing the same lines again adds nothing. Call
// graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $lines (list of maps: person_id (string), manager_id (string)).
// Returns: written (int: the lines whose two people exist).
UNWIND $lines AS line
MATCH (p:Person {id: line.person_id, agent_id: $agent_id})
MATCH (m:Person {id: line.manager_id, agent_id: $agent_id})
MERGE (p)-[r:REPORTS_TO]->(m)
ON CREATE SET r.source = 'enrichment'
RETURN count(r) AS written
