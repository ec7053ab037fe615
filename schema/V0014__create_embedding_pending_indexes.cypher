// Beliefs and rules written without a vector are marked embedding_pending; these indexes let
// embed_pending (app/memory/embedding_store.py) find an agent's pending ones without a scan.
CREATE INDEX belief_agent_embedding_pending IF NOT EXISTS
FOR (n:Belief) ON (n.agent_id, n.embedding_pending);
CREATE INDEX rule_agent_embedding_pending IF NOT EXISTS
FOR (n:Rule) ON (n.agent_id, n.embedding_pending);
