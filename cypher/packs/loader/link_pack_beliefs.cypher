// A pack's SUPPORTS and CONTRADICTS edges between its active beliefs (MERGE: loading again
// changes nothing). The pack validated that its SUPPORTS edges form no cycle. A SUPPORTS edge of
// this pack follows the version's weight when the pack's figure changed (`pack_weight`, the
// weight the pack last gave; a weight a person set through the API stays until then). A
// CONTRADICTS edge is one per pair whichever way it points (as beliefs/edges/upsert_contradicts
// keeps the conflict register): one of this pack follows the version's strength when the pack's
// figure changed (`pack_strength`, likewise), and one an earlier version retired
// (packs/loader/retire_pack_edges) is opened again. An edge the pack did not create (no `pack`,
// or another pack's) is left as it is.
// Each SUPPORTS edge created, or whose weight changed, writes a BeliefEvent on its target (kind
// 'pack', action 'support_linked' or 'support_reweighed', supporter_id, weight, old_weight (null
// when new), pack, version, note; strength and tension unchanged: a new belief's strength was
// derived from the pack before writing, the cascade the caller runs next records any move), as
// beliefs/edges/create_supports does by hand. Each CONTRADICTS pair created, opened again or
// given another strength writes a BeliefEvent on both its beliefs (kind 'pack', action
// 'contradiction_recorded', 'contradiction_reopened' or 'contradiction_updated',
// contradicting_id, strength, status, resolution, pack, version, note), as
// beliefs/edges/upsert_contradicts does.
// Params: $agent_id (string), $pack_name (string), $version (int: the version being loaded),
//         $supports (list of {source_id, target_id, weight}),
//         $contradicts (list of {source_id, target_id, strength}).
// Returns: supports (int): SUPPORTS edges created now; contradicts (int): CONTRADICTS edges
//          created or opened again now; moved (list of {source_id, target_id}): the SUPPORTS
//          edges created or re-weighed now, whose targets the caller re-derives.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CALL () {
  MATCH (agent:Agent {id: $agent_id})
  UNWIND $supports AS edge
  MATCH (s:Belief {id: edge.source_id, agent_id: $agent_id})
  MATCH (t:Belief {id: edge.target_id, agent_id: $agent_id})
  OPTIONAL MATCH (s)-[existing:SUPPORTS]->(t)
  WITH agent, s, t, edge, existing.weight AS old_weight
  MERGE (s)-[r:SUPPORTS]->(t)
    ON CREATE SET r.weight = toFloat(edge.weight), r.pack_weight = toFloat(edge.weight),
                  r.pack = $pack_name, r.created_at = datetime($now), r.new = true
  WITH agent, s, t, r, coalesce(r.new, false) AS created, old_weight,
       r.pack = $pack_name AND coalesce(r.pack_weight, r.weight) <> toFloat(edge.weight)
         AS reweighed, edge
  CALL (r, edge, reweighed) {
    WITH r, edge WHERE reweighed
    SET r.weight = toFloat(edge.weight), r.pack_weight = toFloat(edge.weight)
  }
  REMOVE r.new
  CALL (agent, s, t, r, created, old_weight) {
    WITH agent, s, t, r, created, old_weight WHERE created OR old_weight <> r.weight
    SET agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: t.id, kind: 'pack',
                           action: CASE WHEN created THEN 'support_linked'
                                        ELSE 'support_reweighed' END,
                           seq: agent.event_seq,
                           old_strength: t.strength, new_strength: t.strength,
                           old_tension: t.tension, new_tension: t.tension,
                           supporter_id: s.id, weight: r.weight,
                           old_weight: CASE WHEN created THEN null ELSE old_weight END,
                           pack: $pack_name, version: $version, at: datetime($now),
                           note: 'SUPPORTS from ' + s.id + " ('" + left(s.statement, 120) + "') " +
                                 CASE WHEN created THEN 'linked' ELSE 're-weighed' END +
                                 ' by pack ' + $pack_name + ' v' + toString($version) +
                                 ', weight ' +
                                 CASE WHEN created THEN '' ELSE toString(old_weight) + ' -> ' END +
                                 toString(r.weight)})-[:OF]->(t)
  }
  WITH s, t, created, reweighed WHERE created OR reweighed
  RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS supports,
         collect({source_id: s.id, target_id: t.id}) AS moved
}
CALL () {
  MATCH (agent:Agent {id: $agent_id})
  UNWIND $contradicts AS edge
  MATCH (s:Belief {id: edge.source_id, agent_id: $agent_id})
  MATCH (t:Belief {id: edge.target_id, agent_id: $agent_id})
  OPTIONAL MATCH (s)-[existing:CONTRADICTS]-(t)
  WITH agent, s, t, edge, existing.strength AS old_strength
  MERGE (s)-[r:CONTRADICTS]-(t)
    ON CREATE SET r.strength = toFloat(edge.strength), r.pack_strength = toFloat(edge.strength),
                  r.status = 'open', r.pack = $pack_name, r.created_at = datetime($now),
                  r.new = true
  WITH agent, s, t, r, edge, old_strength, coalesce(r.new, false) AS created,
       coalesce(r.new, false) OR (r.pack = $pack_name AND r.retired_by_pack = true) AS linked
  CALL (r, linked) {
    WITH r WHERE linked
    SET r.status = 'open'
    REMOVE r.resolution, r.resolved_at, r.retired_by_pack, r.retired_in_version
  }
  CALL (r, edge) {
    WITH r, edge
      WHERE r.pack = $pack_name AND coalesce(r.pack_strength, r.strength) <> toFloat(edge.strength)
    SET r.strength = toFloat(edge.strength), r.pack_strength = toFloat(edge.strength)
  }
  REMOVE r.new
  WITH agent, s, t, r, linked,
       CASE WHEN created THEN 'contradiction_recorded'
            WHEN linked THEN 'contradiction_reopened'
            WHEN old_strength <> r.strength THEN 'contradiction_updated' END AS action
  CALL (agent, s, t, r, action) {
    WITH agent, s, t, r, action WHERE action IS NOT NULL
    UNWIND [[s, t], [t, s]] AS end
    WITH agent, r, action, end[0] AS b, end[1] AS other
    CALL (agent, r, action, b, other) {
      SET agent.event_seq = agent.event_seq + 1
      CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'pack',
                             action: action, seq: agent.event_seq,
                             old_strength: b.strength, new_strength: b.strength,
                             old_tension: b.tension, new_tension: b.tension,
                             contradicting_id: other.id, strength: r.strength,
                             status: r.status, resolution: r.resolution,
                             pack: $pack_name, version: $version, at: datetime($now),
                             note: 'CONTRADICTS ' + other.id + " ('" + left(other.statement, 120) +
                                   "') " + substring(action, 14) + ' by pack ' + $pack_name +
                                   ' v' + toString($version) + ', strength ' +
                                   toString(r.strength) + ', ' + r.status})-[:OF]->(b)
    }
  }
  WITH linked WHERE linked
  RETURN count(*) AS contradicts
}
RETURN supports, contradicts, moved
