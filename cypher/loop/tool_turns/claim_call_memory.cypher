// Takes a tool call's memory still to be written (loop/tool_turns/record_call left it on the Action),
// clearing it in the same transaction: the transaction that writes the memory claims it, so it is
// written once, and a rolled-back one leaves it for the next try.
// Params: $agent_id (string), $action_id (string).
// Returns: memory (JSON string). No row when the Action is gone or its memory was written.
MATCH (a:Action {agent_id: $agent_id, id: $action_id})
WHERE a.memory_pending IS NOT NULL
WITH a, a.memory_pending AS memory
REMOVE a.memory_pending
RETURN memory
