// A pack's censors (MERGE on pack + key; pattern, reason and action follow the pack).
// Params: $agent_id (string), $pack_name (string), $rows (list of {key, pattern, reason, action}).
// Returns: censors (int).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
UNWIND $rows AS row
MERGE (c:Censor {agent_id: $agent_id, pack_name: $pack_name, pack_key: row.key})
  ON CREATE SET c.id = randomUUID(), c.created_at = datetime($now), c.auto_created = false
SET c.pattern = row.pattern, c.reason = row.reason, c.action = row.action
RETURN count(c) AS censors
