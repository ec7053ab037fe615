// Lists an agent's stored censors (the shipped defaults are added in Python), oldest first.
// Params: $agent_id (string), $action (string or null: warn/block/absolute),
//         $source (string or null: default/pack/learned/manual),
//         $include_inactive (boolean: also the deactivated ones).
// Returns: censors (list of maps as in guardian/censors/get_censor). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (c:Censor {agent_id: agent.id})
  WITH c, coalesce(c.source, CASE
      WHEN c.pack_name = 'default' THEN 'default'
      WHEN c.pack_name IS NOT NULL THEN 'pack'
      WHEN c.auto_created THEN 'learned'
      ELSE 'manual' END) AS source
  WHERE ($include_inactive OR coalesce(c.is_active, true))
    AND ($action IS NULL OR c.action = $action)
    AND ($source IS NULL OR source = $source)
  WITH c, source ORDER BY c.created_at, c.id
  RETURN collect(c {
    .id, key: coalesce(c.key, c.pack_key), .pattern, .reason, .action, .pack_name,
    .session_key, .created_at, .deactivated_at, source: source,
    is_active: coalesce(c.is_active, true), auto_created: coalesce(c.auto_created, false)
  }) AS censors
}
RETURN censors
