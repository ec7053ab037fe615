// The active censors an agent's turns are checked against (tier 1): pack, default-copy, learned
// and manual ones. One read per check; a censor never deactivated (is_active null) is active.
// Params: $agent_id (string).
// Returns: censors (list of maps: id, key (string or null), pattern, reason, action,
//          pack_name (string or null), source (default/pack/learned/manual)).
//          No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (c:Censor {agent_id: agent.id})
  WHERE coalesce(c.is_active, true)
  RETURN collect(c {
    .id, key: coalesce(c.key, c.pack_key), .pattern, .reason, .action, .pack_name,
    source: coalesce(c.source, CASE
      WHEN c.pack_name = 'default' THEN 'default'
      WHEN c.pack_name IS NOT NULL THEN 'pack'
      WHEN c.auto_created THEN 'learned'
      ELSE 'manual' END)
  }) AS censors
}
RETURN censors
