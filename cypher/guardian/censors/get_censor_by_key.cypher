// The stored censor of an agent holding a key (a manual or learned censor's key, or a pack
// censor's pack_key), active or not: adding a censor by hand refuses a key already held.
// Params: $agent_id (string), $key (string).
// Returns: id (string), is_active (boolean), pack_name (string or null: the pack it came
//          from); no row if no censor of the agent holds the key.
MATCH (c:Censor {agent_id: $agent_id})
  WHERE coalesce(c.key, c.pack_key) = $key
RETURN c.id AS id, coalesce(c.is_active, true) AS is_active, c.pack_name AS pack_name
ORDER BY c.created_at
LIMIT 1
