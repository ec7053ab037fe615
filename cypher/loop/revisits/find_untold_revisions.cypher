// The revisions a person has not been told of: beliefs an earlier turn with them rested on
// (the turn's episode is ABOUT the belief) that have been revised since, and no turn has named
// the change to them (no TOLD edge). Seed 001's "revisits past outputs". The belief the person
// was told is superseded, so every such turn came before its revision; the belief it became is
// followed down the lineage to the one held now.
// Params: $agent_id (string), $name_key (string: the speaker's lower-cased name), $limit (int).
// Returns: revision_id (string), old_statement (string), new_statement (string: the active end
//          of the lineage, else the revision's own), last_told (datetime: the latest turn with
//          the person that rested on the old belief), one row per revision, most recent first.
// The speaker is every person of that name, else the person who holds it as an alias
// (docs/memory.md §2).
CALL () {
  MATCH (p:Person {agent_id: $agent_id, name_key: $name_key})
  RETURN p
  UNION
  MATCH (p:Person {agent_id: $agent_id})
  WHERE $name_key IN p.alias_keys
    AND NOT EXISTS { MATCH (:Person {agent_id: $agent_id, name_key: $name_key}) }
  RETURN p
}
MATCH (p)<-[:WITH]-(e:Episode)-[:ABOUT]->(old:Belief)<-[:REVISED]-(r:Revision)
WHERE old.agent_id = $agent_id AND old.is_active = false AND NOT (r)-[:TOLD]->(p)
WITH r, old, max(e.occurred_at) AS last_told
MATCH (r)-[:PRODUCED]->(new:Belief)
OPTIONAL MATCH (new)-[:SUPERSEDED_BY]->{0,10}(current:Belief {is_active: true})
WITH r, old, new, last_told, collect(current.statement)[0] AS held
RETURN r.id AS revision_id, old.statement AS old_statement,
       coalesce(held, new.statement) AS new_statement, last_told
ORDER BY last_told DESC, r.id
LIMIT $limit
