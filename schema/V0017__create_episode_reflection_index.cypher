// Reflection (app/memory/reflection.py) reads an agent's unconsolidated, non-trivial episodes,
// newest first. Consolidated episodes pile up and trivial ones are never consolidated, so this
// index seeks straight to the open ones instead of scanning all of the agent's episodes.
CREATE INDEX episode_agent_reflection IF NOT EXISTS
FOR (n:Episode) ON (n.agent_id, n.consolidated, n.trivial, n.occurred_at);
