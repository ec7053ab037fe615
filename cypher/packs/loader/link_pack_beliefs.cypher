// A pack's SUPPORTS and CONTRADICTS edges between its active beliefs (MERGE: loading again
// changes nothing). The pack validated that its SUPPORTS edges form no cycle. A SUPPORTS edge of
// this pack follows the version's weight when the pack's figure changed (`pack_weight`, the
// weight the pack last gave; a weight a person set through the API stays until then). A
// CONTRADICTS edge is one per pair whichever way it points (as beliefs/edges/upsert_contradicts
// keeps the conflict register): one of this pack follows the version's strength when the pack's
// figure changed (`pack_strength`, likewise), and one an earlier version retired
// (packs/loader/retire_pack_edges) is opened again. An edge the pack did not create (no `pack`,
// or another pack's) is left as it is.
// Params: $agent_id (string), $pack_name (string),
//         $supports (list of {source_id, target_id, weight}),
//         $contradicts (list of {source_id, target_id, strength}).
// Returns: supports (int): SUPPORTS edges created now; contradicts (int): CONTRADICTS edges
//          created or opened again now; moved (list of {source_id, target_id}): the SUPPORTS
//          edges created or re-weighed now, whose targets the caller re-derives.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
CALL () {
  UNWIND $supports AS edge
  MATCH (s:Belief {id: edge.source_id, agent_id: $agent_id})
  MATCH (t:Belief {id: edge.target_id, agent_id: $agent_id})
  MERGE (s)-[r:SUPPORTS]->(t)
    ON CREATE SET r.weight = toFloat(edge.weight), r.pack_weight = toFloat(edge.weight),
                  r.pack = $pack_name, r.created_at = datetime($now), r.new = true
  WITH s, t, r, coalesce(r.new, false) AS created,
       r.pack = $pack_name AND coalesce(r.pack_weight, r.weight) <> toFloat(edge.weight)
         AS reweighed, edge
  CALL (r, edge, reweighed) {
    WITH r, edge WHERE reweighed
    SET r.weight = toFloat(edge.weight), r.pack_weight = toFloat(edge.weight)
  }
  REMOVE r.new
  WITH s, t, created, reweighed WHERE created OR reweighed
  RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS supports,
         collect({source_id: s.id, target_id: t.id}) AS moved
}
CALL () {
  UNWIND $contradicts AS edge
  MATCH (s:Belief {id: edge.source_id, agent_id: $agent_id})
  MATCH (t:Belief {id: edge.target_id, agent_id: $agent_id})
  MERGE (s)-[r:CONTRADICTS]-(t)
    ON CREATE SET r.strength = toFloat(edge.strength), r.pack_strength = toFloat(edge.strength),
                  r.status = 'open', r.pack = $pack_name, r.created_at = datetime($now),
                  r.new = true
  WITH r, edge, coalesce(r.new, false) OR (r.pack = $pack_name AND r.retired_by_pack = true)
         AS linked
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
  WITH linked WHERE linked
  RETURN count(*) AS contradicts
}
RETURN supports, contradicts, moved
