// Retires the censors of a pack whose keys the version being loaded no longer has
// (docs/packs.md §3): deactivated, never deleted, whatever their action (an absolute censor no
// person may remove goes with the pack that brought it), and marked retired_by_pack with the
// version that retired it (retired_in_version), so that a later version bringing the key back
// makes it active again (packs/loader/upsert_pack_censors).
// A censor already inactive (a person removed it) is left as it is.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $pack_name (string), $version (int: the version being loaded),
//         $keys (list of strings: the censor keys of the version being loaded).
// Returns: one row, keys (list of strings, sorted): the keys of the censors retired.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (c:Censor {agent_id: $agent_id, pack_name: $pack_name})
  WHERE c.pack_key IS NOT NULL AND NOT c.pack_key IN $keys AND coalesce(c.is_active, true)
SET c.is_active = false, c.deactivated_at = datetime($now), c.retired_by_pack = true,
    c.retired_in_version = $version
WITH c.pack_key AS key ORDER BY key
RETURN collect(key) AS keys
