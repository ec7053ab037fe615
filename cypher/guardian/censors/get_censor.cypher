// One censor of an agent, active or not.
// Params: $agent_id (string), $censor_id (string).
// Returns: censor (map: id, key, pattern, reason, action, pack_name, session_key, created_at,
//          deactivated_at, source, is_active, auto_created). No row if there is no such censor.
MATCH (c:Censor {agent_id: $agent_id, id: $censor_id})
RETURN c {
  .id, key: coalesce(c.key, c.pack_key), .pattern, .reason, .action, .pack_name,
  .session_key, .created_at, .deactivated_at,
  source: coalesce(c.source, CASE
    WHEN c.pack_name = 'default' THEN 'default'
    WHEN c.pack_name IS NOT NULL THEN 'pack'
    WHEN c.auto_created THEN 'learned'
    ELSE 'manual' END),
  is_active: coalesce(c.is_active, true), auto_created: coalesce(c.auto_created, false)
} AS censor
