// Revisions over time: revisions per day, week, month or year, triggered vs cascaded.
// Per period: how many revisions the agent made, how many of them a belief's own tension
// triggered and how many were cascaded from another revision.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', bucket: 'day'}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $bucket :: STRING NOT NULL  one of 'day', 'week', 'month', 'year' (default 'day')
// Returns one row per period with at least one revision, oldest first (no rows: none yet):
//   period :: STRING  the first day of the period (weeks start on Monday), e.g. '2026-11-23'
//   revisions :: INTEGER  revisions in the period
//   triggered :: INTEGER  of which started by the belief's own tension (depth 0)
//   cascaded :: INTEGER  of which cascaded from another revision (depth 1 or more)
//   avg_trigger_tension :: FLOAT  mean tension of the revised beliefs when they were revised
//   max_trigger_tension :: FLOAT  highest such tension
MATCH (r:Revision {agent_id: $agent_id})
WITH r, CASE $bucket WHEN 'week' THEN date.truncate('week', r.at)
                     WHEN 'month' THEN date.truncate('month', r.at)
                     WHEN 'year' THEN date.truncate('year', r.at)
                     ELSE date.truncate('day', r.at) END AS period
RETURN toString(period) AS period,
       count(r) AS revisions,
       sum(CASE WHEN coalesce(r.depth, 0) = 0 THEN 1 ELSE 0 END) AS triggered,
       sum(CASE WHEN coalesce(r.depth, 0) > 0 THEN 1 ELSE 0 END) AS cascaded,
       avg(r.trigger_tension) AS avg_trigger_tension,
       max(r.trigger_tension) AS max_trigger_tension
ORDER BY period
