// Edits a belief's statement, importance or supervision mode, recording a manual event, and
// keeps the agent's dissatisfaction sums in step with a new importance.
// Call graph/agent_scope/lock_agent first in the same transaction, then
// beliefs/store/get_belief_guard: the service refuses immutable and inactive beliefs there. An
// inactive belief is refused here too (no row, nothing written), whoever calls.
// Params: $agent_id (string), $belief_id (string), $changes (map: statement string or null,
//         with a statement its lexical_terms (list of strings) and token_count (int): the words
//         the lexical search scores it by, app/text/lexical.py scored_words;
//         importance float or null, supervision_mode string or null,
//         clear_supervision_mode boolean).
// Returns: id (string). No row if unknown or inactive.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
MATCH (b:Belief {agent_id: $agent_id, id: $belief_id})
  WHERE b.is_active
WITH agent, b, b.statement AS old_statement, b.importance AS old_importance
SET b.statement = coalesce($changes.statement, b.statement),
    b.lexical_terms = coalesce($changes.lexical_terms, b.lexical_terms),
    b.token_count = coalesce($changes.token_count, b.token_count),
    // A new statement needs a new vector (app/embeddings/store.py embeds it).
    b.embedding_pending = CASE WHEN $changes.statement IS NOT NULL
                                 AND $changes.statement <> old_statement
                               THEN true ELSE b.embedding_pending END,
    // ... and a replacement a reindex stored embeds the old one: dropped, never put in use.
    b.embedding_next = CASE WHEN $changes.statement IS NOT NULL
                              AND $changes.statement <> old_statement
                            THEN null ELSE b.embedding_next END,
    b.embedding_next_model = CASE WHEN $changes.statement IS NOT NULL
                                    AND $changes.statement <> old_statement
                                  THEN null ELSE b.embedding_next_model END,
    b.importance = coalesce(toFloat($changes.importance), b.importance),
    b.supervision_mode = CASE WHEN $changes.clear_supervision_mode THEN null
                              ELSE coalesce($changes.supervision_mode, b.supervision_mode) END,
    agent.event_seq = agent.event_seq + 1
WITH agent, b, old_statement, old_importance,
     CASE WHEN b.is_active THEN b.importance - old_importance ELSE 0.0 END AS change
SET agent.d_imp = agent.d_imp + change,
    agent.d_imp_deg = agent.d_imp_deg + change * b.degree,
    agent.d_t_imp = agent.d_t_imp + change * b.tension,
    agent.d_t_imp_deg = agent.d_t_imp_deg + change * b.tension * b.degree
CREATE (e:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: b.id, kind: 'manual',
                       action: 'updated',
                       seq: agent.event_seq, old_strength: b.strength, new_strength: b.strength,
                       old_tension: b.tension, new_tension: b.tension, at: datetime($now),
                       note: CASE WHEN old_statement <> b.statement
                                  THEN 'statement was: ' + old_statement
                                  WHEN old_importance <> b.importance
                                  THEN 'importance was: ' + toString(old_importance)
                                  ELSE null END})-[:OF]->(b)
RETURN b.id AS id
