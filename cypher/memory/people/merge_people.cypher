// Merges one person of an agent into another (the survivor keeps its id). Call
// graph/agent_scope/lock_agent first in the same transaction; the service has combined the two
// user models into $changes (app/memory/people/merging.py). Everything that pointed at the
// merged person points at the survivor: their episodes (WITH, each episode's speaker_key
// re-keyed to the survivor's name_key so a search by their name finds those turns), the
// evidence they gave (FROM and source_person), the beliefs learned from them (LEARNED_FROM),
// the revisions they were told of (TOLD), reporting lines (REPORTS_TO, none to themself), the
// agent's principal; then the merged person is deleted. The names the merged person was known
// by (their name_key and their own alias_keys) become alias_keys of the survivor, so a speaker or
// a look-up by that name still finds it (docs/memory.md §2, aliases), each with the name as
// written in alias_names (the same order, what GET …/people/{id} shows): a key is one person's alias
// only (the latest merge takes it from any other person of the agent), and none is the
// survivor's own name_key. A revision told to both keeps one TOLD edge to the survivor, the
// earlier telling's (its `at` and `episode_id`).
// Params: $agent_id (string), $survivor_id (string), $merged_id (string),
//         $changes (map: the same keys as $person of memory/people/create_person).
// Returns: person (map of the survivor's properties), episodes (int: the episodes moved).
//          No row when either person is not the agent's.
MATCH (keep:Person {agent_id: $agent_id, id: $survivor_id})
MATCH (gone:Person {agent_id: $agent_id, id: $merged_id})
// Each alias as a [key, name as written] pair (alias_names is aligned with alias_keys; an alias
// stored before the names were kept is shown as its key).
WITH keep, gone,
     [i IN range(0, size(coalesce(gone.alias_keys, [])) - 1) |
      [gone.alias_keys[i], coalesce(gone.alias_names[i], gone.alias_keys[i])]]
     + [[gone.name_key, gone.name]] AS given
WITH keep, gone, [pair IN given WHERE pair[0] IS NOT NULL AND pair[0] <> keep.name_key] AS given
WITH keep, gone, given, [pair IN given | pair[0]] AS taken
CALL (keep, gone, taken) {
  MATCH (other:Person {agent_id: $agent_id})
  WHERE other <> keep AND other <> gone
    AND any(key IN coalesce(other.alias_keys, []) WHERE key IN taken)
  WITH other, [i IN range(0, size(other.alias_keys) - 1) WHERE NOT other.alias_keys[i] IN taken |
               [other.alias_keys[i], coalesce(other.alias_names[i], other.alias_keys[i])]] AS kept
  SET other.alias_keys = [pair IN kept | pair[0]], other.alias_names = [pair IN kept | pair[1]]
}
WITH keep, gone,
     reduce(pairs = [], pair IN
              [i IN range(0, size(coalesce(keep.alias_keys, [])) - 1) |
               [keep.alias_keys[i], coalesce(keep.alias_names[i], keep.alias_keys[i])]] + given |
            CASE WHEN pair[0] IN [known IN pairs | known[0]] THEN pairs ELSE pairs + [pair] END)
       AS aliases
SET keep += $changes,
    keep.alias_keys = [pair IN aliases | pair[0]],
    keep.alias_names = [pair IN aliases | pair[1]]
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
