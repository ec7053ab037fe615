// Retires the rules of a pack whose keys the version being loaded no longer has
// (docs/packs.md §3): deactivated, never deleted (episodes and decisions that USED one keep
// their history), marked retired_by_pack with the version that retired it, so that a later
// version bringing the key back makes it active again (packs/loader/upsert_pack_rules). Every
// reader of rules skips an inactive one (coalesce(r.is_active, true)).
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $pack_name (string), $version (int: the version being loaded),
//         $keys (list of strings: the rule keys of the version being loaded).
// Returns: one row, keys (list of strings, sorted): the keys of the rules retired.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (r:Rule {agent_id: $agent_id, pack_name: $pack_name})
  WHERE r.pack_key IS NOT NULL AND NOT r.pack_key IN $keys AND coalesce(r.is_active, true)
SET r.is_active = false, r.deactivated_at = datetime($now), r.retired_by_pack = true,
    r.retired_in_version = $version
WITH r.pack_key AS key ORDER BY key
RETURN collect(key) AS keys
