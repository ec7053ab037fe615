// People section of the context: people named in the query (fulltext on Person.name, scoped to
// the agent) and the people of the retrieved episodes, ranked by relationship value.
// Params: $agent_id (string), $agent_clause (string: app.memory.lucene.agent_clause),
//         $terms (Lucene terms or null), $episode_ids (list of strings),
//         $k (int).
// Returns one record, rows: a list of maps (one record, not one per row:
//          GraphClient.read_collected), each with id, name, role, authority, relationship_value,
//          trust, via (string), score (float).
CALL () {
  WITH 1 AS go WHERE $terms IS NOT NULL
  CALL db.index.fulltext.queryNodes('person_name_fulltext',
         'name:(' + $terms + ') AND agent_id:' + $agent_clause, {limit: $k})
    YIELD node, score
    WHERE node.agent_id = $agent_id
  RETURN node AS p, 'named' AS via, 1.0 AS weight
  UNION ALL
  UNWIND $episode_ids AS episode_id
  MATCH (:Episode {id: episode_id, agent_id: $agent_id})-[:WITH]->(p:Person)
  RETURN p, 'episode' AS via, 0.5 AS weight
}
WITH p, collect(DISTINCT via) AS vias, max(weight) AS weight
WITH p, vias, weight * (0.5 + 0.5 * coalesce(p.relationship_value, 0.3)) AS score
ORDER BY score DESC
LIMIT $k
RETURN collect({
  id: p.id, name: p.name, role: p.role, authority: p.authority,
  relationship_value: p.relationship_value, trust: p.trust, via: vias, score: score
}) AS rows
