// Dissatisfaction history: one sample per turn, its change and the revisions in between.
// The agent's recorded dissatisfaction D with its band, the change since the sample before and
// the revisions made after that sample, up to this one.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', limit: 100}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $limit :: INTEGER NOT NULL  the most recent samples returned (default 100)
// Returns one row per sample, oldest first (no rows: no turn recorded yet):
//   at :: DATETIME  when the sample was recorded
//   value :: FLOAT  dissatisfaction D, 0..1
//   band :: STRING  'low', 'medium' or 'high'
//   change :: FLOAT  value minus the previous sample's value (null for the very first sample)
//   revisions :: INTEGER  revisions made after the previous sample, up to this one
MATCH (s:DissatisfactionSample {agent_id: $agent_id})
WITH s ORDER BY s.at DESC, s.id
LIMIT toInteger($limit) + 1
WITH collect(s) AS recent
UNWIND range(0, size(recent) - 1) AS position
WITH recent, position
WHERE position < toInteger($limit)
WITH recent[position] AS s, recent[position + 1] AS previous
RETURN s.at AS at,
       s.value AS value,
       s.band AS band,
       s.value - previous.value AS change,
       COUNT { (r:Revision {agent_id: $agent_id})
               WHERE r.at <= s.at AND (previous IS NULL OR r.at > previous.at) } AS revisions
ORDER BY at
