// What a tool call's memory wrote: whether it is still pending on the Action, the episode the
// Action and its decision point at, the strength of the beliefs the call moved, and the agent's
// capability records' experience, the Action's status and result and its decision's outcome.
// Params: $agent_id (string), $action_id (string).
// Returns: pending (boolean), action_episode (string or null), decision_episode (string or null),
// moved (list of maps: id, strength, held: the largest of its default strength and its
// strengths in contexts, so a call made at a period end, which moves the belief in that
// context, reads as moved too), experience (int), status (string), result (string or null),
// decision_outcome (string or null).
MATCH (a:Action {agent_id: $agent_id, id: $action_id})
OPTIONAL MATCH (d:Decision {agent_id: $agent_id, id: a.decision_id})
WITH a, d.outcome AS decision_outcome
OPTIONAL MATCH (a)-[:IN_EPISODE]->(e:Episode)
OPTIONAL MATCH (:Decision {agent_id: $agent_id, id: a.decision_id})-[:IN_TURN]->(de:Episode)
WITH a, decision_outcome, e, de
OPTIONAL MATCH (a)-[:MOVED]->(b:Belief)
WITH a, decision_outcome, e, de, collect(b {.id, .strength,
       held: reduce(top = b.strength, s IN [(b)-[h:HOLDS_IN]->(:Context) | h.strength] |
                    CASE WHEN s > top THEN s ELSE top END)}) AS moved
OPTIONAL MATCH (:Agent {id: $agent_id})-[:HAS_CAPABILITY]->(c:Capability)
RETURN a.memory_pending IS NOT NULL AS pending, e.id AS action_episode,
       de.id AS decision_episode, moved, sum(coalesce(c.experience_count, 0)) AS experience,
       a.status AS status, a.result AS result, decision_outcome
