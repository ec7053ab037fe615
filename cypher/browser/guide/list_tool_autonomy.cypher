// Guide, "How a tool earned autonomy": the calls of the agent's most-called tool, oldest first:
// whether a person was asked (proposal) or the call ran on its own (autonomous), how the
// approval and the call ended, and the strength of the agent's belief that the tool does what is
// asked after each call that moved it (its outcome events, in order).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per call (none: no tool called yet):
//   at :: DATETIME  when the call was asked for
//   tool :: STRING  connection.tool
//   mode :: STRING  proposal (a person approves) / autonomous / blocked (refused by the guardian)
//   approval :: STRING  approved / rejected ... (null: nobody was asked)
//   status :: STRING  succeeded / rejected / refused / failed ...
//   belief_strength :: FLOAT  the tool belief's strength after the call (null: it did not move)
MATCH (t:Tool {agent_id: $agent_id})
WITH t, COUNT { (:Action)-[:CALLED]->(t) } AS calls
WHERE calls > 0
WITH t ORDER BY calls DESC, t.qualified_name LIMIT 1
OPTIONAL MATCH (belief:Belief)-[:ABOUT_TOOL]->(t)
CALL (belief) {
  OPTIONAL MATCH (e:BeliefEvent {kind: 'outcome'})-[:OF]->(belief)
  WITH e ORDER BY e.seq
  RETURN collect(e.new_strength) AS strengths
}
MATCH (a:Action)-[:CALLED]->(t)
WITH t, strengths, a, EXISTS { (a)-[:MOVED]->(belief) } AS moved_it
ORDER BY a.created_at, a.id
WITH t, strengths, collect({action: a, moved_it: moved_it}) AS calls
UNWIND range(0, size(calls) - 1) AS i
WITH t, strengths, calls, i, calls[i].action AS a, calls[i].moved_it AS moved_it
OPTIONAL MATCH (ap:Approval)-[:FOR_ACTION]->(a)
RETURN a.created_at AS at,
       t.qualified_name AS tool,
       a.mode AS mode,
       ap.status AS approval,
       a.status AS status,
       CASE WHEN moved_it THEN round(strengths[size([c IN calls[..i] WHERE c.moved_it])], 2) END
         AS belief_strength
ORDER BY at
LIMIT 30
