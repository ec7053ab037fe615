// Brings back a removed censor that a person adds again, with the reason they give and, when they
// name one, the action they ask for (the caller holds the agent lock).
// Params: $agent_id (string), $censor_id (string), $reason (string),
//         $action (string, or null to keep the censor's own).
// Returns: id (string). No row if there is no such censor.
MATCH (c:Censor {agent_id: $agent_id, id: $censor_id})
SET c.is_active = true,
    c.deactivated_at = null,
    c.reason = $reason,
    c.action = coalesce($action, c.action)
RETURN c.id AS id
