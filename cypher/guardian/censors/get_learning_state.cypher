// What adding a censor must know, read under the agent lock: a stored censor of the agent with the
// same (normalised) pattern, active or not, and how many censors were auto-created in the session.
// Params: $agent_id (string), $pattern (string, normalised: trimmed),
//         $session_key (string or null: null counts nothing).
// Returns: existing_id (string or null), learned_in_session (int).
OPTIONAL MATCH (same:Censor {agent_id: $agent_id})
  WHERE trim(same.pattern) = $pattern
WITH same ORDER BY coalesce(same.is_active, true) DESC, same.created_at
WITH head(collect(same.id)) AS existing_id
CALL () {
  OPTIONAL MATCH (learned:Censor {agent_id: $agent_id, session_key: $session_key})
    WHERE learned.auto_created
  RETURN count(learned) AS learned_in_session
}
RETURN existing_id, learned_in_session
