// Creates a belief with its context-conditional strengths and its creation event.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $m (map: mechanics, see app/beliefs/mechanics.py),
//         $belief (map: id, statement, category, domain (nullable), strength, importance,
//         is_core, is_immutable, source, event_kind ('manual', 'pack', 'research' or 'learned'),
//         contexts: list of {name, strength}, context_parents: list of {child, parent},
//         lexical_terms (list of strings), token_count (int): the words the lexical search
//         scores it by, app/text/lexical.py scored_words).
// Returns: id (string).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
CREATE (b:Belief {id: $belief.id, agent_id: $agent_id})
SET b.statement = $belief.statement,
    b.lexical_terms = $belief.lexical_terms,
    b.token_count = $belief.token_count,
    b.category = $belief.category,
    b.domain = $belief.domain,
    b.strength = toFloat($belief.strength),
    b.tension = 0.0,
    b.importance = toFloat($belief.importance),
    b.is_core = $belief.is_core,
    b.is_immutable = $belief.is_immutable,
    b.is_active = true,
    b.is_distrusted = false,
    b.is_invalidated = $belief.strength < $m.thresholds[$belief.category] - $m.invalidation_tolerance,
    b.reinforcement_count = 0,
    b.degree = 0,
    b.source = $belief.source,
    b.created_at = datetime($now),
    // Filled right after the write by app/embeddings/store.py (embed_pending).
    b.embedding_pending = true
SET agent.event_seq = agent.event_seq + 1,
    agent.d_imp = agent.d_imp + b.importance
CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id,
                       kind: $belief.event_kind, action: 'created', seq: agent.event_seq,
                       new_strength: b.strength, new_tension: 0.0, at: datetime($now),
                       context_names: [c IN $belief.contexts | c.name],
                       context_strengths: [c IN $belief.contexts | toFloat(c.strength)]})
      -[:OF]->(b)
WITH b
CALL (b) {
  UNWIND $belief.context_parents AS link
  MERGE (child:Context {agent_id: $agent_id, name: link.child})
    ON CREATE SET child.id = randomUUID()
  MERGE (parent:Context {agent_id: $agent_id, name: link.parent})
    ON CREATE SET parent.id = randomUUID()
  MERGE (child)-[:WITHIN]->(parent)
}
CALL (b) {
  UNWIND $belief.contexts AS ctx
  MERGE (c:Context {agent_id: $agent_id, name: ctx.name})
    ON CREATE SET c.id = randomUUID()
  MERGE (b)-[h:HOLDS_IN]->(c)
  SET h.strength = toFloat(ctx.strength)
}
RETURN b.id AS id
