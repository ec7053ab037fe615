// Cascade depth distribution: revisions and cascades per cascade depth (0 to 3).
// Per depth: how many revisions happened at that depth (0: the belief's own tension, 1 to 3:
// carried along by a connected belief's revision) and how many cascades reached exactly that
// depth (a cascade is a revision not CASCADED_FROM another one, with every revision that
// cascaded from it, however indirectly).
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>'}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
// Returns one row per depth from 0 to the deepest seen, zero counts included (no rows: no
// revisions yet):
//   depth :: INTEGER  cascade depth
//   revisions :: INTEGER  revisions recorded at this depth (Revision.depth)
//   cascades :: INTEGER  cascades whose longest CASCADED_FROM chain has this length
//   largest_cascade :: INTEGER  most revisions in one of those cascades (0 when none)
CALL () {
  MATCH (r:Revision {agent_id: $agent_id})
  RETURN collect(coalesce(r.depth, 0)) AS depths
}
CALL () {
  MATCH (root:Revision {agent_id: $agent_id})
  WHERE NOT EXISTS { (root)-[:CASCADED_FROM]->(:Revision) }
  OPTIONAL MATCH chain = (:Revision)-[:CASCADED_FROM]->+(root)
  WITH root, coalesce(max(length(chain)), 0) AS reach, count(DISTINCT nodes(chain)[0]) + 1 AS size
  RETURN collect({reach: reach, size: size}) AS cascades
}
WITH depths, cascades,
     reduce(deepest = -1, d IN depths + [c IN cascades | c.reach] |
            CASE WHEN d > deepest THEN d ELSE deepest END) AS deepest
UNWIND range(0, deepest) AS depth
WITH depth, depths, [c IN cascades WHERE c.reach = depth] AS reaching
RETURN depth,
       size([d IN depths WHERE d = depth]) AS revisions,
       size(reaching) AS cascades,
       reduce(largest = 0, c IN reaching | CASE WHEN c.size > largest THEN c.size ELSE largest END)
         AS largest_cascade
ORDER BY depth
