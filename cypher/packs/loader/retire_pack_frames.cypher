// Retires the frames a pack installed (source 'pack:<name>') whose keys the version being loaded
// no longer has (docs/packs.md §3): deactivated, never deleted (episodes stay IN_FRAME of it),
// marked retired_by_pack with the version that retired it; no frame choice reads it any more.
// A later version bringing the key back installs it again, active (memory/frames/install_frames).
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $pack_name (string), $version (int: the version being loaded),
//         $keys (list of strings: the frame keys of the version being loaded).
// Returns: one row, keys (list of strings, sorted): the keys of the frames retired.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (f:Frame {agent_id: $agent_id, source: 'pack:' + $pack_name})
  WHERE NOT f.key IN $keys AND coalesce(f.is_active, true)
SET f.is_active = false, f.deactivated_at = datetime($now), f.retired_by_pack = true,
    f.retired_in_version = $version
WITH f.key AS key ORDER BY key
RETURN collect(key) AS keys
