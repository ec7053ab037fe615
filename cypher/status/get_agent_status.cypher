// What an agent's status shows (docs/loop.md §15), read in one query: its sessions (open, active:
// open and last active at or after $active_after, closed), its episodes (all, and since its last
// reflection), when it last reflected, its latest sessions with their turns, model calls and
// tokens (summed over their episodes), its open conflicts (CONTRADICTS edges between active
// beliefs) and its pending approvals (not past their expiry at $now).
// Params: $agent_id (string), $now (datetime), $active_after (datetime), $sessions (int: the
//         latest sessions listed).
// Returns: agent (map: id, name, episodes_since_reflection, reflected_at), open_sessions (int),
//          active_sessions (int), closed_sessions (int), episodes (int), sessions (list of maps:
//          key, started_at, last_active, closed_at, close_trigger, summary, turns, model_calls,
//          input_tokens, output_tokens; the latest first), open_conflicts (int),
//          pending_approvals (int). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (s:Session {agent_id: $agent_id})
  RETURN count(CASE WHEN s.closed_at IS NULL THEN 1 END) AS open_sessions,
         count(CASE WHEN s.closed_at IS NULL AND s.last_active >= $active_after THEN 1 END)
           AS active_sessions,
         count(s.closed_at) AS closed_sessions
}
CALL (agent) {
  OPTIONAL MATCH (e:Episode {agent_id: $agent_id})
  RETURN count(e) AS episodes
}
CALL (agent) {
  OPTIONAL MATCH (s:Session {agent_id: $agent_id})
  WITH s ORDER BY coalesce(s.last_active, s.started_at) DESC, s.key
  LIMIT $sessions
  CALL (s) {
    OPTIONAL MATCH (e:Episode)-[:IN_SESSION]->(s)
    RETURN count(e) AS turns, sum(coalesce(e.model_calls, 0)) AS model_calls,
           sum(coalesce(e.input_tokens, 0)) AS input_tokens,
           sum(coalesce(e.output_tokens, 0)) AS output_tokens
  }
  RETURN collect(CASE WHEN s IS NULL THEN null ELSE s {
    .key, .started_at, .last_active, .closed_at, .close_trigger, .summary,
    turns: turns, model_calls: model_calls, input_tokens: input_tokens,
    output_tokens: output_tokens} END) AS sessions
}
CALL (agent) {
  OPTIONAL MATCH (:Belief {agent_id: $agent_id, is_active: true})
                 -[c:CONTRADICTS {status: 'open'}]->(:Belief {is_active: true})
  RETURN count(c) AS open_conflicts
}
CALL (agent) {
  OPTIONAL MATCH (a:Approval {agent_id: $agent_id, status: 'pending'})
  WHERE a.expires_at IS NULL OR a.expires_at >= $now
  RETURN count(a) AS pending_approvals
}
RETURN agent {.id, .name, .episodes_since_reflection, .reflected_at} AS agent,
       open_sessions, active_sessions, closed_sessions, episodes, sessions, open_conflicts,
       pending_approvals
