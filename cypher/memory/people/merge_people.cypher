// Merges one person of an agent into another (the survivor keeps its id). Call
// graph/agent_scope/lock_agent first in the same transaction; the service has combined the two
// user models into $changes (app/memory/people/merging.py). Everything that pointed at the
// merged person points at the survivor: their episodes (WITH, each episode's speaker_key
// re-keyed to the survivor's name_key so a search by their name finds those turns), the
// evidence they gave (FROM and source_person), the beliefs learned from them (LEARNED_FROM),
// the revisions they were told of (TOLD), reporting lines (REPORTS_TO, none to themself), the
// agent's principal; then the merged person is deleted. The names the merged person was known
// by (their name_key and their own alias_keys) become alias_keys of the survivor, so a speaker or
// a look-up by that name still finds it (docs/memory.md §2, aliases): a key is one person's alias
// only (the latest merge takes it from any other person of the agent), and none is the
// survivor's own name_key. A revision told to both keeps one TOLD edge to the survivor, the
// earlier telling's (its `at` and `episode_id`).
// Params: $agent_id (string), $survivor_id (string), $merged_id (string),
//         $changes (map: the same keys as $person of memory/people/create_person).
// Returns: person (map of the survivor's properties), episodes (int: the episodes moved).
//          No row when either person is not the agent's.
MATCH (keep:Person {agent_id: $agent_id, id: $survivor_id})
MATCH (gone:Person {agent_id: $agent_id, id: $merged_id})
WITH keep, gone,
     [key IN coalesce(gone.alias_keys, []) + [gone.name_key]
      WHERE key IS NOT NULL AND key <> keep.name_key] AS taken
CALL (keep, gone, taken) {
  MATCH (other:Person {agent_id: $agent_id})
  WHERE other <> keep AND other <> gone
    AND any(key IN coalesce(other.alias_keys, []) WHERE key IN taken)
  SET other.alias_keys = [key IN other.alias_keys WHERE NOT key IN taken]
}
SET keep += $changes,
    keep.alias_keys = reduce(keys = [], key IN coalesce(keep.alias_keys, []) + taken |
                             CASE WHEN key IN keys THEN keys ELSE keys + key END)
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
  MERGE (r)-[new:TOLD]->(keep)
    ON CREATE SET new = properties(old)
    ON MATCH SET new = CASE WHEN old.at < new.at THEN properties(old) ELSE properties(new) END
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
