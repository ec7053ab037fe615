// Records that a turn told a person of revisions (its answer named them, or it made them while
// talking with them), so no later turn names them again.
// Params: $agent_id (string), $name_key (string: the person's lower-cased name),
//         $revision_ids (list of strings), $episode_id (string: the telling turn), $now (datetime).
// Returns: told (int: revisions newly marked).
// The person is every person of that name, else the person who holds it as an alias
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
UNWIND $revision_ids AS revision_id
MATCH (r:Revision {agent_id: $agent_id, id: revision_id})
MERGE (r)-[t:TOLD]->(p)
  ON CREATE SET t.episode_id = $episode_id, t.at = $now
RETURN count(t) AS told
