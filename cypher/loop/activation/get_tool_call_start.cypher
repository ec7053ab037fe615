// What a turn that calls a tool reads before it judges anything, in one round trip: the agent's
// identity, its installed frames (the frame is chosen among them, or among the shipped ones when
// it has none), D from the running sums on the Agent (as beliefs/dissatisfaction/
// compute_dissatisfaction with $top 0), its people and the session's latest turns (as
// get_turn_people_and_history), and the tool with the agent's belief about it (its strength in
// the first context of $chain, or of its nearest WITHIN ancestor, that the belief holds in, else
// its default strength; as beliefs/contexts/get_context_strengths) and how many of its calls
// succeeded, counted up to $successes_cap (as tools/get_tool_focus), and the agent's active
// censors (as guardian/check/list_active_censors: the guardian checks the call with them).
// Params: $agent_id (string), $qualified_name (string), $session (string or null: no history),
//         $limit (int: turns of history), $chain (list of context names; may be empty),
//         $successes_cap (int: the successes are counted up to this many; the destructive cap
//         asks for no more, and the count stays one look-up however many calls the tool had).
// Returns: agent (map: id, name, identity_goal, terminal_creed), frames (list of property
//          maps, in position order), d (float), people (list of {id, name, name_key, role,
//          authority, relationship_value, affect_valence, affect_stress}), history (list of
//          {speaker, message, response, occurred_at}, newest first), tool (map: qualified_name,
//          description, read_only, destructive: what supervision reads; null when no such
//          active tool), belief (map: id, statement, category, strength (in the context),
//          default_strength, tension; null when the tool has none, or it is inactive), successes (int, at most $successes_cap), censors (list of maps,
//          as guardian/check/list_active_censors returns them). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
WITH agent, toFloat(agent.d_max_degree) AS max_degree
WITH agent,
     CASE WHEN max_degree > 0
          THEN 0.5 * agent.d_imp + 0.5 * agent.d_imp_deg / max_degree
          ELSE 0.5 * agent.d_imp END AS total,
     CASE WHEN max_degree > 0
          THEN 0.5 * agent.d_t_imp + 0.5 * agent.d_t_imp_deg / max_degree
          ELSE 0.5 * agent.d_t_imp END AS tense
CALL (agent) {
  MATCH (f:Frame {agent_id: agent.id})
  WITH f ORDER BY f.position, f.key
  RETURN collect(properties(f)) AS frames
}
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  RETURN collect(p {.id, .name, .name_key, .role, .authority, .relationship_value,
                    .affect_valence, .affect_stress}) AS people
}
CALL (agent) {
  OPTIONAL MATCH (:Session {agent_id: agent.id, key: $session})<-[:IN_SESSION]-(e:Episode)
  WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
  LIMIT $limit
  RETURN collect(CASE WHEN e IS NOT NULL THEN {speaker: e.speaker,
                      message: coalesce(e.user_message, e.text), response: e.response,
                      occurred_at: e.occurred_at} END) AS history
}
CALL (agent) {
  OPTIONAL MATCH (agent)-[:CAN_USE]->(t:Tool {agent_id: $agent_id, qualified_name: $qualified_name})
  WHERE t.is_active
  OPTIONAL MATCH (b:Belief {agent_id: $agent_id, id: t.belief_id})
  WHERE b.is_active
  RETURN t, b
  LIMIT 1
}
CALL (b) {
  UNWIND CASE WHEN b IS NULL THEN [] ELSE range(0, size($chain) - 1) END AS position
  OPTIONAL MATCH path = (:Context {agent_id: $agent_id, name: $chain[position]})
                        -[:WITHIN*0..]->(c:Context)
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c)
  WITH position, length(path) AS distance, h ORDER BY position, distance
  WITH collect(h.strength) AS found
  RETURN CASE WHEN size(found) > 0 THEN found[0] ELSE null END AS in_context
}
CALL (t) {
  OPTIONAL MATCH (a:Action)-[:CALLED]->(t)
  WHERE a.status = 'succeeded'
  WITH a LIMIT $successes_cap
  RETURN count(a) AS successes
}
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
RETURN agent {.id, .name, .identity_goal, .terminal_creed} AS agent,
       frames,
       CASE WHEN total > 0 THEN tense / total ELSE 0.0 END AS d,
       people,
       history,
       CASE WHEN t IS NULL THEN null
            ELSE t {.qualified_name, .description, .read_only, .destructive} END AS tool,
       CASE WHEN b IS NULL THEN null ELSE {
         id: b.id, statement: b.statement, category: b.category,
         strength: coalesce(in_context, b.strength), default_strength: b.strength,
         tension: b.tension
       } END AS belief,
       successes,
       censors
