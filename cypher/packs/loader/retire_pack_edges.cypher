// Retires the edges of a pack (r.pack = $pack_name) between two active beliefs that the version
// being loaded no longer has (docs/packs.md §3):
// - a SUPPORTS edge is deleted, so that no reader of SUPPORTS (the cascade, propagation,
//   explanations, analytics, cycle checks) can count it, and a BeliefEvent on its target records
//   it (kind 'pack', action 'support_retired', supporter_id, weight, pack, version, note; strength
//   and tension unchanged: the cascade the caller runs next records the move);
// - a CONTRADICTS edge still open is resolved (status 'resolved', resolution 'retired by pack
//   <name> v<version>', resolved_at, retired_by_pack, retired_in_version) and kept in the
//   conflict register, and a BeliefEvent on both its beliefs records it (kind 'pack', action
//   'contradiction_resolved', contradicting_id, strength, status, resolution, pack, version,
//   note); packs/loader/link_pack_beliefs opens it again (an event 'contradiction_reopened')
//   when a later version brings it back.
// Only edges between two active beliefs the pack PROVIDES are retired: one touching an inactive
// belief (one the version dropped, or superseded) is left as it is (no reader counts it), and so
// is one a revision outside the pack moved onto a belief that is no longer the pack's. Call graph/agent_scope/lock_agent first in the same transaction,
// after packs/loader/link_pack_beliefs (so the pairs are the beliefs' ids after superseding).
// Params: $agent_id (string), $pack_name (string), $version (int: the version being loaded),
//         $supports (list of strings: '<source id> <target id>' of each SUPPORTS edge of the
//         version), $contradicts (list of strings: the same for its CONTRADICTS edges, either way
//         round: a pair's one edge may point the other way).
// Returns: one row: supports (list of {source_id, target_id}: the SUPPORTS edges deleted),
//          contradicts (list of {source_id, target_id}: the CONTRADICTS edges resolved),
//          resupport_ids (list of strings: the active supporters left to the beliefs that lost
//          one, from which the caller cascades).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
CALL (agent, k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(s:Belief {is_active: true})-[r:SUPPORTS]->(t:Belief)
  WHERE r.pack = $pack_name AND t.is_active AND (k)-[:PROVIDES]->(t)
    AND NOT s.id + ' ' + t.id IN $supports
  WITH agent, s, r, t ORDER BY t.id, s.id
  CALL (agent, s, r, t) {
    WITH agent, s, r, t WHERE r IS NOT NULL
    SET agent.event_seq = agent.event_seq + 1
    CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: t.id, kind: 'pack',
                           action: 'support_retired', seq: agent.event_seq,
                           old_strength: t.strength, new_strength: t.strength,
                           old_tension: t.tension, new_tension: t.tension,
                           supporter_id: s.id, weight: r.weight, pack: $pack_name,
                           version: $version, at: datetime($now),
                           note: 'SUPPORTS from ' + s.id + ' retired by pack ' + $pack_name +
                                 ' v' + toString($version)})-[:OF]->(t)
    DELETE r
  }
  RETURN collect(CASE WHEN r IS NULL THEN null ELSE {source_id: s.id, target_id: t.id} END)
           AS supports,
         collect(DISTINCT t) AS unsupported
}
CALL (unsupported) {
  UNWIND unsupported AS t
  MATCH (left:Belief)-[:SUPPORTS]->(t)
  WHERE left.is_active
  RETURN collect(DISTINCT left.id) AS resupport_ids
}
CALL (agent, k) {
  OPTIONAL MATCH (k)-[:PROVIDES]->(s:Belief {is_active: true})-[c:CONTRADICTS]->(t:Belief)
  WHERE c.pack = $pack_name AND c.status = 'open' AND t.is_active AND (k)-[:PROVIDES]->(t)
    AND NOT (s.id + ' ' + t.id IN $contradicts OR t.id + ' ' + s.id IN $contradicts)
  WITH agent, s, c, t ORDER BY s.id, t.id
  CALL (agent, s, c, t) {
    WITH agent, s, c, t WHERE c IS NOT NULL
    SET c.status = 'resolved',
        c.resolution = 'retired by pack ' + $pack_name + ' v' + toString($version),
        c.resolved_at = datetime($now),
        c.retired_by_pack = true,
        c.retired_in_version = $version
    WITH agent, c, [[s, t], [t, s]] AS ends
    UNWIND ends AS end
    WITH agent, c, end[0] AS b, end[1] AS other
    CALL (agent, c, b, other) {
      SET agent.event_seq = agent.event_seq + 1
      CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'pack',
                             action: 'contradiction_resolved', seq: agent.event_seq,
                             old_strength: b.strength, new_strength: b.strength,
                             old_tension: b.tension, new_tension: b.tension,
                             contradicting_id: other.id, strength: c.strength,
                             status: c.status, resolution: c.resolution,
                             pack: $pack_name, version: $version, at: datetime($now),
                             note: 'CONTRADICTS ' + other.id + " ('" + left(other.statement, 120) +
                                   "') " + c.resolution})-[:OF]->(b)
    }
  }
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE {source_id: s.id, target_id: t.id} END)
           AS contradicts
}
RETURN supports, contradicts, resupport_ids
