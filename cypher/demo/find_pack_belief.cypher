// A belief an agent holds from a pack, by the pack's key for it.
// Params: $agent_id (string), $pack (string: the pack's name), $key (string: the belief's key
//         in the pack).
// Returns: id (string), statement (string), is_active (boolean), tension (float).
//          No row: the pack or the key is not loaded.
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.pack_name = $pack AND b.pack_key = $key
RETURN b.id AS id, b.statement AS statement, b.is_active AS is_active, b.tension AS tension
ORDER BY b.created_at
LIMIT 1
