// The scheduler's jobs (app/scheduler): one ScheduledJob node per job kind (and agent, for the
// per-agent jobs), keyed "<job>" or "<job>:<agent id>". The key is unique so that two processes
// claiming a job that has no node yet create one node, and the claim (MERGE on the key,
// cypher/scheduler/claim_jobs.cypher) finds it by the constraint's index; the agent index lets an
// agent's status read its jobs' last runs.
CREATE CONSTRAINT scheduled_job_key_unique IF NOT EXISTS
FOR (n:ScheduledJob) REQUIRE n.key IS UNIQUE;
CREATE INDEX scheduled_job_agent_id IF NOT EXISTS FOR (n:ScheduledJob) ON (n.agent_id);
