// Merges one person of an agent into another (the survivor keeps its id). Call
// graph/agent_scope/lock_agent first in the same transaction; the service has combined the two
// user models into $changes (app/memory/people/merging.py). Everything that pointed at the
// merged person points at the survivor: their episodes (WITH, each episode's speaker_key
// re-keyed to the survivor's name_key so a search by their name finds those turns), the
// evidence they gave (FROM and source_person), the beliefs learned from them (LEARNED_FROM),
// the revisions they were told of (TOLD), reporting lines (REPORTS_TO, none to themself), the
// agent's principal; then the merged person is deleted.
// Params: $agent_id (string), $survivor_id (string), $merged_id (string),
//         $changes (map: the same keys as $person of memory/people/create_person).
// Returns: person (map of the survivor's properties), episodes (int: the episodes moved).
//          No row when either person is not the agent's.
MATCH (keep:Person {agent_id: $agent_id, id: $survivor_id})
MATCH (gone:Person {agent_id: $agent_id, id: $merged_id})
SET keep += $changes
WITH keep, gone
CALL (keep, gone) {
  MATCH (e:Episode)-[old:WITH]->(gone)
  MERGE (e)-[new:WITH]->(keep)
    ON CREATE SET new = properties(old)
  SET e.speaker_key = CASE WHEN old.role = 'speaker' THEN keep.name_key ELSE e.speaker_key END
  RETURN count(DISTINCT e) AS episodes
}
CALL (keep, gone) {
  MATCH (ev:Evidence)-[:FROM]->(gone)
  MERGE (ev)-[:FROM]->(keep)
}
CALL (keep, gone) {
  MATCH (ev:Evidence {agent_id: $agent_id, source_person: gone.id})
  SET ev.source_person = keep.id
}
CALL (keep, gone) {
  MATCH (b:Belief)-[:LEARNED_FROM]->(gone)
  MERGE (b)-[:LEARNED_FROM]->(keep)
}
CALL (keep, gone) {
  MATCH (r:Revision)-[old:TOLD]->(gone)
  CREATE (r)-[new:TOLD]->(keep)
  SET new = properties(old)
}
CALL (keep, gone) {
  MATCH (gone)-[old:REPORTS_TO]->(boss:Person) WHERE boss <> keep
  MERGE (keep)-[new:REPORTS_TO]->(boss)
    ON CREATE SET new = properties(old)
}
CALL (keep, gone) {
  MATCH (report:Person)-[old:REPORTS_TO]->(gone) WHERE report <> keep
  MERGE (report)-[new:REPORTS_TO]->(keep)
    ON CREATE SET new = properties(old)
}
CALL (keep, gone) {
  MATCH (agent:Agent {id: $agent_id, principal_id: gone.id})
  SET agent.principal_id = keep.id
}
DETACH DELETE gone
RETURN properties(keep) AS person, episodes
