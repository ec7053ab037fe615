// Test only: rewrites a belief's newest cascade event behind the engine's back, as a cascade
// computed wrongly (or an event from before events recorded their inputs) would have left it.
// Each $changes entry that is not null replaces the event's property of that name;
// $forget_inputs removes the inputs the event recorded.
// Params: $agent_id (string), $belief_id (string),
//         $changes (map: new_strength float or null, supporter_strengths list of floats or null),
//         $forget_inputs (boolean).
// Returns: seq (int): the event's sequence number.
MATCH (e:BeliefEvent {agent_id: $agent_id, belief_id: $belief_id, kind: 'cascade'})
WITH e ORDER BY e.seq DESC LIMIT 1
SET e.new_strength = coalesce($changes.new_strength, e.new_strength),
    e.supporter_strengths = coalesce($changes.supporter_strengths, e.supporter_strengths)
FOREACH (_ IN CASE WHEN $forget_inputs THEN [1] ELSE [] END |
  REMOVE e.supporter_ids, e.supporter_strengths, e.supporter_weights, e.supporter_count,
         e.weighted_sum, e.weight_sum)
RETURN e.seq AS seq
