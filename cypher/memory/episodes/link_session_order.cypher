// Re-links the NEXT chains of sessions after new episodes joined them (the caller holds the
// agent lock and computed the pairs with app/memory/session_order.py): removes the edges between
// episodes that are no longer consecutive, then links the new consecutive pairs.
// Params: $agent_id (string), $unlink (list of [before id, after id]), $link (same).
// Returns: linked (int).
CALL () {
  UNWIND $unlink AS pair
  MATCH (:Episode {agent_id: $agent_id, id: pair[0]})-[r:NEXT]->(:Episode {agent_id: $agent_id, id: pair[1]})
  DELETE r
}
UNWIND $link AS pair
MATCH (before:Episode {agent_id: $agent_id, id: pair[0]})
MATCH (after:Episode {agent_id: $agent_id, id: pair[1]})
MERGE (before)-[:NEXT]->(after)
RETURN count(*) AS linked
