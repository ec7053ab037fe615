// The guardian's reads. The cap on censors auto-created per session counts an agent's censors of
// one session; the tier-3 audit reads an agent's ethical core beliefs (a handful among up to
// 100k beliefs) to build the creed.
CREATE INDEX censor_agent_session IF NOT EXISTS
FOR (n:Censor) ON (n.agent_id, n.session_key);
CREATE INDEX belief_agent_category_core IF NOT EXISTS
FOR (n:Belief) ON (n.agent_id, n.category, n.is_core);
