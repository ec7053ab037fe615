// Deactivates a censor (nothing is hard-deleted); reactivate_censor brings one back.
// Params: $agent_id (string), $censor_id (string), $active (boolean).
// Returns: id (string). No row if there is no such censor.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (c:Censor {agent_id: $agent_id, id: $censor_id})
SET c.is_active = $active,
    c.deactivated_at = CASE WHEN $active THEN null ELSE coalesce(c.deactivated_at, datetime($now)) END
RETURN c.id AS id
