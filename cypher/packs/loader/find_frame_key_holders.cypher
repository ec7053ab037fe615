// The frames of an agent, other than the pack's own, that hold one of the pack's frame keys
// (another pack's, the shipped defaults installed as source 'seed'), active or retired: a pack
// bringing a key another frame holds is refused (docs/packs.md §2). A frame of source 'pack'
// (installed at birth before frames named their pack) is left out: its own pack names it.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $pack_name (string), $keys (list of strings).
// Returns: key (string), id (string), source (string), is_active (boolean); one row per holder.
MATCH (f:Frame {agent_id: $agent_id})
  WHERE f.key IN $keys AND NOT coalesce(f.source, '') IN ['pack', 'pack:' + $pack_name]
RETURN f.key AS key, f.id AS id, f.source AS source, coalesce(f.is_active, true) AS is_active
ORDER BY key
