// A pack's censors (MERGE on pack + key; pattern, reason and action follow the pack). A censor
// the pack itself retired (packs/loader/retire_pack_censors: an earlier version dropped its key)
// is active again; one a person removed stays removed. Call graph/agent_scope/lock_agent first in
// the same transaction.
// Params: $agent_id (string), $pack_name (string), $rows (list of {key, pattern, reason, action}).
// Returns: censors (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
UNWIND $rows AS row
MERGE (c:Censor {agent_id: $agent_id, pack_name: $pack_name, pack_key: row.key})
  ON CREATE SET c.id = randomUUID(), c.created_at = datetime($now), c.auto_created = false
WITH c, row, coalesce(c.retired_by_pack, false) AS back
SET c.pattern = row.pattern, c.reason = row.reason, c.action = row.action,
    c.is_active = CASE WHEN back THEN true ELSE c.is_active END,
    c.deactivated_at = CASE WHEN back THEN null ELSE c.deactivated_at END
REMOVE c.retired_by_pack, c.retired_in_version
RETURN count(c) AS censors
