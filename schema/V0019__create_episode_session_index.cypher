// A session's episodes are read by (agent_id, session_key) from a time on, on every write that
// joins a session (app/memory/session_order.py: cypher/episodes/session_order), a chat turn's
// included; without this index that read scanned all the agent's episodes (a turn's episode
// phase 25 -> 150 ms at 100k episodes, bench/turn_performance.py).
CREATE INDEX episode_agent_session_time IF NOT EXISTS
FOR (n:Episode) ON (n.agent_id, n.session_key, n.occurred_at);
