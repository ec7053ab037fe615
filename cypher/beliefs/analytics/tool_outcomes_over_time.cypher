// Tool outcomes and autonomy over time: per period and tool, how the calls went and how many ran
// autonomously. The calls of each tool of a connected MCP server (Action nodes), per day, week,
// month or year: succeeded, failed, interrupted, refused by the guardian, rejected by a person,
// still pending, running, and how many ran without asking (earned autonomy) against those a person approved.
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>', bucket: 'day'}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
//   $bucket :: STRING NOT NULL  one of 'day', 'week', 'month', 'year' (default 'day')
// Returns one row per period and tool with at least one call, oldest first (no rows: none yet):
//   period :: STRING  the first day of the period (weeks start on Monday), e.g. '2026-11-23'
//   tool :: STRING  connection.tool
//   calls :: INTEGER  calls asked for in the period
//   succeeded :: INTEGER  calls that ran and were verified
//   failed :: INTEGER  calls that ran and failed (an error result, a timeout, a dead server)
//   interrupted :: INTEGER  calls that ran but whose outcome was never written (the turn failed
//     or the process stopped after the call's record)
//   refused :: INTEGER  calls the guardian refused
//   rejected :: INTEGER  calls a person rejected
//   pending :: INTEGER  calls waiting for a person
//   running :: INTEGER  calls running now, or whose outcome is being written
//   autonomous :: INTEGER  calls that ran without asking
//   approved :: INTEGER  calls that ran after a person approved them
//   autonomy_share :: FLOAT  autonomous / (autonomous + approved), null when none ran
MATCH (a:Action {agent_id: $agent_id})
WITH a, CASE $bucket WHEN 'week' THEN date.truncate('week', a.created_at)
                     WHEN 'month' THEN date.truncate('month', a.created_at)
                     WHEN 'year' THEN date.truncate('year', a.created_at)
                     ELSE date.truncate('day', a.created_at) END AS period
WITH period, a.qualified_name AS tool,
     count(a) AS calls,
     sum(CASE WHEN a.status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
     sum(CASE WHEN a.status = 'failed' THEN 1 ELSE 0 END) AS failed,
     sum(CASE WHEN a.status = 'interrupted' THEN 1 ELSE 0 END) AS interrupted,
     sum(CASE WHEN a.status = 'refused' THEN 1 ELSE 0 END) AS refused,
     sum(CASE WHEN a.status = 'rejected' THEN 1 ELSE 0 END) AS rejected,
     sum(CASE WHEN a.status = 'pending' THEN 1 ELSE 0 END) AS pending,
     sum(CASE WHEN a.status = 'running' THEN 1 ELSE 0 END) AS running,
     sum(CASE WHEN a.mode = 'autonomous' AND a.status IN ['succeeded', 'failed', 'interrupted']
              THEN 1 ELSE 0 END) AS autonomous,
     sum(CASE WHEN a.mode <> 'autonomous' AND a.status IN ['succeeded', 'failed']
              THEN 1 ELSE 0 END) AS approved
RETURN toString(period) AS period, tool, calls, succeeded, failed, interrupted, refused,
       rejected, pending, running,
       autonomous, approved,
       CASE WHEN autonomous + approved = 0 THEN null
            ELSE toFloat(autonomous) / (autonomous + approved) END AS autonomy_share
ORDER BY period, tool
