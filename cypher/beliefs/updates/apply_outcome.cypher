// Applies one outcome with moral asymmetry to a belief's default strength, or to its strength in
// a context (HOLDS_IN, created from the backed-off value when missing). Distrusted beliefs do not
// move; a violation that drives an ethical belief to 0 distrusts it for good.
// Call graph/agent_scope/lock_agent first in the same transaction; run beliefs/cascade/cascade_strength after it
// when default_changed is true.
// Params: $agent_id (string), $belief_id (string), $m (map: mechanics),
//         $outcome (map: outcome 'success'|'failure'|'neutral', valence 'neutral'|'confirmation'|
//         'violation', severity float 0..1, context string or null,
//         context_parents list of {child, parent}), $context_chain (list of strings: the
//         context then its fallbacks; empty without a context).
// Returns: active (boolean: false means the caller must roll back), old_strength, new_strength (floats), is_distrusted, is_invalidated (booleans),
//          default_changed (boolean), multiplier (float). No row if the belief is unknown.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
CALL (b) {
  UNWIND range(0, size($context_chain) - 1) AS position
  OPTIONAL MATCH chain = (:Context {agent_id: $agent_id, name: $context_chain[position]})
                         -[:WITHIN*0..]->(c:Context)
  OPTIONAL MATCH (b)-[h:HOLDS_IN]->(c)
  WITH position, length(chain) AS distance, h ORDER BY position, distance
  WITH collect(h.strength) AS found
  RETURN CASE WHEN size(found) > 0 THEN found[0] ELSE null END AS contextual
}
WITH agent, b,
     CASE WHEN $outcome.context IS NULL THEN b.strength ELSE coalesce(contextual, b.strength) END
       AS old,
     $m.multipliers[$outcome.valence] AS multiplier,
     CASE $outcome.outcome WHEN 'success' THEN 1.0 WHEN 'failure' THEN -1.0 ELSE 0.0 END AS signal
WITH agent, b, old, multiplier,
     $m.alpha_base * multiplier *
       CASE WHEN $outcome.outcome = 'failure' THEN 0.5 + 0.5 * $outcome.severity ELSE 1.0 END
       AS alpha, signal
WITH agent, b, old, multiplier,
     CASE WHEN b.is_distrusted THEN old
          ELSE CASE WHEN old + alpha * signal < 0.0 THEN 0.0
                    WHEN old + alpha * signal > 1.0 THEN 1.0
                    ELSE old + alpha * signal END END AS new
CALL (b, new) {
  WITH b, new WHERE $outcome.context IS NULL
  SET b.strength = new,
      b.is_invalidated = new < $m.thresholds[b.category] - $m.invalidation_tolerance
}
CALL (b, new) {
  WITH b, new WHERE $outcome.context IS NOT NULL AND NOT b.is_distrusted
  CALL (b) {
    UNWIND $outcome.context_parents AS link
    MERGE (child:Context {agent_id: $agent_id, name: link.child})
      ON CREATE SET child.id = randomUUID()
    MERGE (parent:Context {agent_id: $agent_id, name: link.parent})
      ON CREATE SET parent.id = randomUUID()
    MERGE (child)-[:WITHIN]->(parent)
  }
  MERGE (c:Context {agent_id: $agent_id, name: $outcome.context})
    ON CREATE SET c.id = randomUUID()
  MERGE (b)-[h:HOLDS_IN]->(c)
  SET h.strength = new
}
WITH agent, b, old, new, multiplier,
     b.is_distrusted AS was_distrusted
SET b.is_distrusted = b.is_distrusted
      OR (b.category = 'ethical' AND $outcome.valence = 'violation' AND new <= 0.0),
    agent.event_seq = agent.event_seq + 1
CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'outcome',
                       outcome: $outcome.outcome, moral_valence: $outcome.valence,
                       severity: toFloat($outcome.severity), multiplier: multiplier,
                       context: $outcome.context, seq: agent.event_seq,
                       old_strength: old, new_strength: new,
                       old_tension: b.tension, new_tension: b.tension, at: datetime($now),
                       note: CASE WHEN was_distrusted THEN 'distrusted: unchanged'
                                  WHEN b.is_distrusted THEN 'became distrusted'
                                  ELSE null END})-[:OF]->(b)
RETURN b.is_active AS active, old AS old_strength, new AS new_strength, b.is_distrusted AS is_distrusted,
       b.is_invalidated AS is_invalidated, multiplier,
       $outcome.context IS NULL AND abs(new - old) > 1e-12 AS default_changed
