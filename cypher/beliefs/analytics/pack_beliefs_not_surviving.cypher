// Pack beliefs that did not survive: knowledge-pack beliefs revised away or deactivated.
// Beliefs that came from a knowledge pack (source 'pack', or PROVIDES from a KnowledgePack) and
// are no longer active: revised (superseded by a new belief) or deactivated. With
// $include_invalidated, also active pack beliefs whose strength fell below their category's
// threshold (is_invalidated): still held, no longer trusted.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', include_invalidated: false}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $include_invalidated :: BOOLEAN NOT NULL  also active but invalidated beliefs (default false)
// Returns one row per such belief, most recently lost first (no rows: every pack belief holds):
//   belief_id :: STRING
//   statement :: STRING  what the pack said
//   pack :: STRING  the KnowledgePack's name (null: source 'pack' with no pack node)
//   category :: STRING
//   fate :: STRING  'revised', 'upgraded' (pack_upgrade), 'deactivated' or 'invalidated'
//   revision_mode :: STRING  how it was revised ('threshold', 'cascade', ..., null if not revised)
//   trigger_tension :: FLOAT  its tension when revised (null: not revised)
//   lost_at :: DATETIME  when it was revised or deactivated (null: invalidated)
//   revisions_since :: INTEGER  revisions from it to the current belief of its lineage
//   current_id :: STRING  the belief that holds its place now (null: none)
//   current_statement :: STRING
MATCH (b:Belief {agent_id: $agent_id})
WHERE (b.source = 'pack' OR EXISTS { (:KnowledgePack)-[:PROVIDES]->(b) })
  AND (NOT b.is_active OR ($include_invalidated AND b.is_invalidated))
OPTIONAL MATCH (rev:Revision)-[:REVISED]->(b)
OPTIONAL MATCH lineage = (b)-[:SUPERSEDED_BY]->+(current:Belief)
WHERE NOT EXISTS { (current)-[:SUPERSEDED_BY]->(:Belief) }
CALL (b) {
  OPTIONAL MATCH (pack:KnowledgePack)-[:PROVIDES]->(b)
  RETURN head(collect(pack.name)) AS pack
}
CALL (b) {
  OPTIONAL MATCH (e:BeliefEvent {action: 'deactivated'})-[:OF]->(b)
  RETURN max(e.at) AS deactivated_at
}
RETURN b.id AS belief_id,
       b.statement AS statement,
       pack,
       b.category AS category,
       CASE WHEN rev IS NOT NULL AND rev.mode = 'pack_upgrade' THEN 'upgraded'
            WHEN rev IS NOT NULL THEN 'revised'
            WHEN NOT b.is_active THEN 'deactivated'
            ELSE 'invalidated' END AS fate,
       rev.mode AS revision_mode,
       rev.trigger_tension AS trigger_tension,
       coalesce(rev.at, deactivated_at) AS lost_at,
       coalesce(length(lineage), 0) AS revisions_since,
       current.id AS current_id,
       current.statement AS current_statement
ORDER BY lost_at DESC, belief_id
