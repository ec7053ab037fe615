// Why an agent holds a belief, beyond get_belief/get_belief_history: what supports it up to
// $depth SUPPORTS hops (each supporter once, by its shortest path), the evidence on it and on
// every belief it superseded (with the person or episode it came from), and the revisions of
// its lineage.
// Params: $agent_id (string), $belief_id (string), $depth (int, 1 to 5: SUPPORTS hops),
//         $limit (int: the most supporters, and the most evidence items, returned).
// Returns: support_chain (list of {id, statement, strength, tension, is_active, depth (hops to
//          the belief), weight (of its own SUPPORTS edge), path_weight (product of the weights
//          down to the belief), supports_id, supports_statement (the belief that edge holds up)}:
//          nearest first, then the active ones, then strongest),
//          evidence (list of {id, belief_id, text, kind, stance, weight, tension_delta, at,
//          source_person_id, source_person (name or null), episode_id, episode_text}: newest
//          first, pieces written at the same time last written first (Evidence.seq)),
//          evidence_totals ({reinforcing, contradicting, other}: every piece on the lineage,
//          not only the $limit listed), support_totals ({active, inactive}: the direct
//          supporters, all of them; {deeper}: the supporters 2 to $depth hops down that are
//          not direct ones, active, on an all-active path), revisions (list of {id, mode, depth, trigger_tension, old_belief_id,
//          old_statement, new_belief_id, new_statement, evidence_summary, reasoning,
//          behavioral_changes, reasoner, at}: oldest first; every revision that produced or
//          revised a belief of the lineage). No row if the belief is unknown.
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
CALL (b) {
  OPTIONAL MATCH path = (s:Belief)-[:SUPPORTS*1..5]->(b)
  WHERE length(path) <= $depth
  WITH s, path ORDER BY length(path)
  WITH s, head(collect(path)) AS path
  WITH s, path ORDER BY length(path), s.is_active DESC, s.strength DESC, s.id LIMIT $limit
  RETURN collect(CASE WHEN s IS NULL THEN null ELSE {
           id: s.id, statement: s.statement, strength: s.strength, tension: s.tension,
           is_active: s.is_active, depth: length(path),
           weight: relationships(path)[0].weight,
           path_weight: reduce(w = 1.0, r IN relationships(path) | w * r.weight),
           supports_id: nodes(path)[1].id, supports_statement: nodes(path)[1].statement
         } END) AS support_chain
}
CALL (b) {
  OPTIONAL MATCH (lineage:Belief)-[:SUPERSEDED_BY*0..]->(b)
  OPTIONAL MATCH (ev:Evidence)-[:REINFORCES|CHALLENGES|CONCERNS]->(lineage)
  WITH DISTINCT ev ORDER BY ev.at DESC, coalesce(ev.seq, 0) DESC, ev.id DESC LIMIT $limit
  OPTIONAL MATCH (ev)-[:FROM]->(person:Person)
  OPTIONAL MATCH (ev)-[:FROM]->(episode:Episode)
  RETURN collect(CASE WHEN ev IS NULL THEN null ELSE {
           id: ev.id, belief_id: ev.belief_id, text: ev.text, kind: ev.kind, stance: ev.stance,
           weight: ev.weight, tension_delta: ev.tension_delta, at: ev.at,
           source_person_id: ev.source_person, source_person: person.name,
           episode_id: ev.episode_id, episode_text: coalesce(episode.text, episode.user_message)
         } END) AS evidence
}
CALL (b) {
  OPTIONAL MATCH (lineage:Belief)-[:SUPERSEDED_BY*0..]->(b)
  OPTIONAL MATCH (ev:Evidence)-[:REINFORCES|CHALLENGES|CONCERNS]->(lineage)
  WITH DISTINCT ev
  RETURN {reinforcing: count(CASE WHEN ev.stance = 'reinforcing' THEN ev END),
          contradicting: count(CASE WHEN ev.stance = 'contradicting' THEN ev END),
          other: count(CASE WHEN NOT ev.stance IN ['reinforcing', 'contradicting'] THEN ev END)
         } AS evidence_totals
}
CALL (b) {
  OPTIONAL MATCH (direct:Belief)-[:SUPPORTS]->(b)
  WITH count(CASE WHEN direct.is_active THEN direct END) AS active,
       count(CASE WHEN NOT direct.is_active THEN direct END) AS inactive
  OPTIONAL MATCH path = (deeper:Belief)-[:SUPPORTS*2..5]->(b)
  WHERE length(path) <= $depth AND all(n IN nodes(path)[..-1] WHERE n.is_active)
    AND NOT (deeper)-[:SUPPORTS]->(b)
  WITH active, inactive, count(DISTINCT deeper) AS deeper
  RETURN {active: active, inactive: inactive, deeper: deeper} AS support_totals
}
CALL (b) {
  OPTIONAL MATCH (member:Belief)-[:SUPERSEDED_BY*0..]-(b)
  OPTIONAL MATCH (rev:Revision)-[:REVISED]->(member)
  OPTIONAL MATCH (rev)-[:PRODUCED]->(new:Belief)
  WITH DISTINCT rev, member AS old, new ORDER BY rev.at
  RETURN collect(CASE WHEN rev IS NULL THEN null ELSE {
           id: rev.id, mode: rev.mode, depth: rev.depth, trigger_tension: rev.trigger_tension,
           old_belief_id: old.id, old_statement: rev.old_statement,
           new_belief_id: new.id, new_statement: rev.new_statement,
           evidence_summary: rev.evidence_summary, reasoning: rev.reasoning,
           behavioral_changes: rev.behavioral_changes, reasoner: rev.reasoner, at: rev.at
         } END) AS revisions
}
RETURN support_chain, evidence, evidence_totals, support_totals, revisions
