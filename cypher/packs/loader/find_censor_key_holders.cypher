// The censors of an agent, other than the pack's own, that hold one of the pack's censor keys (a
// manual or learned censor's key, another pack's pack_key), active or not: a pack bringing a key
// another censor holds is refused (docs/packs.md §2). Call graph/agent_scope/lock_agent first in
// the same transaction.
// Params: $agent_id (string), $pack_name (string), $keys (list of strings).
// Returns: key (string), id (string), pack_name (string or null), source (string or null),
//          is_active (boolean); one row per holder.
MATCH (c:Censor {agent_id: $agent_id})
  WHERE coalesce(c.key, c.pack_key) IN $keys AND coalesce(c.pack_name, '') <> $pack_name
RETURN coalesce(c.key, c.pack_key) AS key, c.id AS id, c.pack_name AS pack_name,
       c.source AS source, coalesce(c.is_active, true) AS is_active
ORDER BY key, c.created_at
