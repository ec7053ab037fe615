// Records a mention of a salient entity, merged on (agent_id, name_key).
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $new_id (string: the id if the entity is new), $now (datetime),
//         $entity (map: name, name_key (lower-cased name), kind (string, or null to keep the
//         entity's own)), $default_kind (string: the kind of an entity that has none yet).
// Returns: entity (map of the Entity's properties).
MATCH (agent:Agent {id: $agent_id})
MERGE (e:Entity {agent_id: $agent_id, name_key: $entity.name_key})
  ON CREATE SET e.id = $new_id, e.first_seen = $now, e.mention_count = 0
SET e.name = $entity.name,
    e.kind = coalesce($entity.kind, e.kind, $default_kind),
    e.mention_count = e.mention_count + 1,
    e.last_seen = CASE WHEN e.last_seen IS NULL OR $now > e.last_seen THEN $now
                       ELSE e.last_seen END
RETURN properties(e) AS entity
