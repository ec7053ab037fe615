// Longest supersession lineages: beliefs revised again and again, first to current statement.
// Each lineage runs from the first statement (the root) through every SUPERSEDED_BY to the
// current one, the longest first.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', limit: 10}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $limit :: INTEGER NOT NULL  most lineages returned (default 10)
// Returns one row per lineage with at least one revision, most revisions first (no rows: none):
//   root_id :: STRING  the first belief of the lineage
//   first_statement :: STRING  what the agent believed first
//   current_id :: STRING  the last belief of the lineage
//   current_statement :: STRING  what it believes now
//   current_is_active :: BOOLEAN  false when the last belief was deactivated too
//   revisions :: INTEGER  SUPERSEDED_BY steps from the first to the last belief
//   first_source :: STRING  where the first belief came from ('pack', 'api', ...)
//   started_at :: DATETIME  when the first belief was created
//   last_revised_at :: DATETIME  when the last belief was created by its revision
//   belief_ids :: LIST<STRING>  every belief of the lineage, first to last
MATCH (root:Belief {agent_id: $agent_id})
WHERE NOT EXISTS { (:Belief)-[:SUPERSEDED_BY]->(root) }
  AND EXISTS { (root)-[:SUPERSEDED_BY]->(:Belief) }
MATCH lineage = (root)-[:SUPERSEDED_BY]->+(current:Belief)
WHERE NOT EXISTS { (current)-[:SUPERSEDED_BY]->(:Belief) }
RETURN root.id AS root_id,
       root.statement AS first_statement,
       current.id AS current_id,
       current.statement AS current_statement,
       current.is_active AS current_is_active,
       length(lineage) AS revisions,
       root.source AS first_source,
       root.created_at AS started_at,
       current.created_at AS last_revised_at,
       [belief IN nodes(lineage) | belief.id] AS belief_ids
ORDER BY revisions DESC, last_revised_at DESC, root_id
LIMIT toInteger($limit)
