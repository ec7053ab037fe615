// Applies pieces of evidence in order, in one statement: reinforcing evidence raises strength
// with diminishing returns, contradicting evidence adds linear tension (never decays) and that
// tension flows up to $m.propagation_max_hops SUPPORTS hops (δ · ρ^k · Π edge weights, summed over
// paths; every node on a path active). Each piece is logged as an Evidence node linked to the
// belief (REINFORCES / CHALLENGES / CONCERNS) and to its Episode and Person when given; each
// strength or tension change writes a BeliefEvent. Distrusted beliefs do not gain strength.
// Call agents/lock_agent first; run beliefs/cascade_strength on strength_changed afterwards.
// Params: $agent_id (string), $m (map: mechanics), $items (list of maps: evidence_id, belief_id,
//         text, kind, stance 'reinforcing'|'contradicting'|'neutral'|'novel', weight float 0..1,
//         source_person_id string or null, episode_id string or null).
// Returns: results (list of {evidence_id, belief_id, stance, active (boolean: false means the
//          caller must roll back: the belief was superseded or deactivated), old_strength, new_strength,
//          old_tension, new_tension, propagated: list of {id, old, new, added}}, in input order).
MATCH (agent:Agent {id: $agent_id})
UNWIND range(0, size($items) - 1) AS position
WITH agent, position, $items[position] AS item
CALL (agent, item) {
  MATCH (b:Belief {agent_id: $agent_id, id: item.belief_id})
  WITH agent, item, b, b.strength AS old_strength, b.tension AS old_tension,
       item.stance = 'reinforcing' AND NOT b.is_distrusted AS reinforcing,
       item.stance = 'contradicting' AS contradicting
  WITH agent, item, b, old_strength, old_tension, reinforcing, contradicting,
       CASE WHEN reinforcing
            THEN old_strength + (1.0 - old_strength) * $m.reinforcement_rate * item.weight
            ELSE old_strength END AS new_strength,
       CASE WHEN contradicting
            THEN CASE WHEN old_tension + $m.contradiction_rate * item.weight > 1.0 THEN 1.0
                      ELSE old_tension + $m.contradiction_rate * item.weight END
            ELSE old_tension END AS new_tension
  SET b.strength = new_strength,
      b.tension = new_tension,
      b.is_invalidated = new_strength < $m.thresholds[b.category],
      b.reinforcement_count = b.reinforcement_count + CASE WHEN reinforcing THEN 1 ELSE 0 END,
      b.last_reinforced = CASE WHEN reinforcing THEN datetime() ELSE b.last_reinforced END,
      b.last_challenged = CASE WHEN contradicting THEN datetime() ELSE b.last_challenged END
  CREATE (ev:Evidence {id: item.evidence_id, agent_id: $agent_id, belief_id: b.id,
                       text: item.text, kind: item.kind, stance: item.stance,
                       weight: toFloat(item.weight), tension_delta: new_tension - old_tension,
                       source_person: item.source_person_id, at: datetime()})
  CALL (ev, b, reinforcing, contradicting) {
    WITH ev, b WHERE reinforcing
    CREATE (ev)-[:REINFORCES]->(b)
    UNION
    WITH ev, b WHERE contradicting
    CREATE (ev)-[:CHALLENGES]->(b)
    UNION
    WITH ev, b WHERE NOT reinforcing AND NOT contradicting
    CREATE (ev)-[:CONCERNS]->(b)
  }
  CALL (ev, item) {
    OPTIONAL MATCH (episode:Episode {agent_id: $agent_id, id: item.episode_id})
    OPTIONAL MATCH (person:Person {agent_id: $agent_id, id: item.source_person_id})
    FOREACH (target IN [x IN [episode, person] WHERE x IS NOT NULL] | CREATE (ev)-[:FROM]->(target))
  }
  CALL (agent, item, b, old_strength, new_strength, old_tension, new_tension) {
    WITH agent, item, b, old_strength, new_strength, old_tension, new_tension
    WHERE abs(new_strength - old_strength) > 1e-12 OR abs(new_tension - old_tension) > 1e-12
    SET agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id,
                           kind: CASE WHEN item.stance = 'reinforcing' THEN 'reinforcement'
                                      ELSE 'contradiction' END,
                           action: 'evidence', evidence_id: item.evidence_id,
                           weight: toFloat(item.weight),
                           delta: CASE WHEN item.stance = 'contradicting'
                                       THEN $m.contradiction_rate * item.weight ELSE null END,
                           seq: agent.event_seq, old_strength: old_strength,
                           new_strength: new_strength, old_tension: old_tension,
                           new_tension: new_tension, at: datetime()})-[:OF]->(b)
  }
  RETURN b, b.is_active AS active, contradicting, old_strength, new_strength, old_tension,
         new_tension
}
CALL (agent, item, b, contradicting) {
  OPTIONAL MATCH path = (b)-[:SUPPORTS]->{1,3}(x:Belief)
  WHERE contradicting AND length(path) <= $m.propagation_max_hops
    AND all(n IN nodes(path) WHERE n.is_active)
  WITH agent, item, b, x,
       sum($m.contradiction_rate * item.weight * $m.propagation_rho ^ length(path)
           * reduce(product = 1.0, r IN relationships(path) | product * r.weight)) AS added
  ORDER BY x.id
  CALL (agent, item, b, x, added) {
    WITH agent, item, b, x, added, x.tension AS old
    WITH agent, item, b, x, added, old, CASE WHEN old + added > 1.0 THEN 1.0 ELSE old + added END AS new
    WHERE x IS NOT NULL AND abs(new - old) > 1e-12
    SET x.tension = new,
        x.last_challenged = datetime(),
        agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: x.id,
                           kind: 'contradiction', action: 'propagated',
                           evidence_id: item.evidence_id, origin_belief_id: b.id, delta: added,
                           seq: agent.event_seq, old_strength: x.strength,
                           new_strength: x.strength, old_tension: old, new_tension: new,
                           at: datetime()})-[:OF]->(x)
    RETURN {id: x.id, old: old, new: new, added: added} AS change
  }
  RETURN collect(change) AS propagated
}
RETURN collect({evidence_id: item.evidence_id, belief_id: b.id, stance: item.stance,
                active: active,
                old_strength: old_strength, new_strength: new_strength,
                old_tension: old_tension, new_tension: new_tension,
                propagated: propagated}) AS results
