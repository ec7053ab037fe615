// Revises one belief (a phase transition): creates the revised belief (tension 0; strength
// derived from the re-attached supporters, else $m.revision_initial_strength), supersedes the
// old one (inactive, SUPERSEDED_BY), moves its SUPPORTS and CONTRADICTS edges and copies its
// context strengths (and a pinned guidance or proposal mode) to the new belief, and records a
// Revision node (REVISED, PRODUCED, CASCADED_FROM its parent revision) with a 'revision' event
// on both beliefs. Each moved edge is recorded after them (kind 'revision', revision_id, note; strength and tension unchanged):
// on each belief the old one supported, 'support_moved' (supporter_id: the new belief,
// old_supporter_id: the old one, weight); on the new belief, 'support_linked' for each supporter
// it took over (supporter_id, weight, old_weight null); on both beliefs of each CONTRADICTS pair
// moved, 'contradiction_moved' (contradicting_id, on the other belief also
// old_contradicting_id, strength, status, resolution).
// Call graph/agent_scope/lock_agent first; run beliefs/cascade/cascade_strength from the new belief afterwards.
// Params: $agent_id (string), $m (map: mechanics), $revision (map: id, old_id, new_id, statement,
//         reasoning, evidence_summary, behavioral_changes (list of strings), depth (int),
//         mode (string), reasoner (string), parent_revision_id (string or null),
//         initial_strength (float or null: without supporters; null = the mechanics' default),
//         lexical_terms (list of strings), token_count (int): the words the lexical search
//         scores the new belief by, app/text/lexical.py scored_words).
// Returns: revision_id, old_id, new_id (strings), trigger_tension (float), new_strength (float).
//          No row when the old belief is unknown or no longer active.
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
MATCH (old:Belief {agent_id: $agent_id, id: $revision.old_id})
WHERE old.is_active
CREATE (new:Belief {id: $revision.new_id, agent_id: $agent_id})
WITH agent, old, new
SET new.statement = $revision.statement,
    new.lexical_terms = $revision.lexical_terms,
    new.token_count = $revision.token_count,
    new.category = old.category,
    new.domain = old.domain,
    new.importance = old.importance,
    new.is_core = old.is_core,
    // A pin that holds autonomy back (a person's "ask me before acting on this") is carried to
    // the revised belief; a pin of 'autonomous' is not: the new statement earns its own.
    new.supervision_mode = CASE WHEN old.supervision_mode IN ['guidance', 'proposal']
                                THEN old.supervision_mode END,
    new.is_immutable = false,
    new.is_active = true,
    new.is_distrusted = false,
    new.tension = 0.0,
    new.reinforcement_count = 0,
    // The edges move over unchanged, so the new belief has the old one's degree; for the
    // dissatisfaction sums only the old tension leaves (the new belief starts at 0).
    new.degree = old.degree,
    agent.d_t_imp = agent.d_t_imp - old.tension * old.importance,
    agent.d_t_imp_deg = agent.d_t_imp_deg - old.tension * old.importance * old.degree,
    new.source = 'revision',
    new.created_at = datetime($now),
    new.embedding_pending = true,
    old.is_active = false,
    old.revised_at = datetime($now)
CREATE (old)-[:SUPERSEDED_BY]->(new)
WITH agent, old, new
CALL (old, new) {
  MATCH (old)-[r:SUPPORTS]->(x:Belief)
  CREATE (new)-[moved:SUPPORTS]->(x)
  SET moved = properties(r)
  DELETE r
}
CALL (old, new) {
  MATCH (x:Belief)-[r:SUPPORTS]->(old)
  CREATE (x)-[moved:SUPPORTS]->(new)
  SET moved = properties(r)
  DELETE r
}
CALL (old, new) {
  MATCH (old)-[r:CONTRADICTS]->(x:Belief)
  CREATE (new)-[moved:CONTRADICTS]->(x)
  SET moved = properties(r)
  DELETE r
}
CALL (old, new) {
  MATCH (x:Belief)-[r:CONTRADICTS]->(old)
  CREATE (x)-[moved:CONTRADICTS]->(new)
  SET moved = properties(r)
  DELETE r
}
CALL (old, new) {
  MATCH (old)-[h:HOLDS_IN]->(c:Context)
  CREATE (new)-[copy:HOLDS_IN]->(c)
  SET copy = properties(h)
}
CALL (new) {
  OPTIONAL MATCH (supporter:Belief)-[s:SUPPORTS]->(new)
  WHERE supporter.is_active
  RETURN CASE WHEN sum(s.weight) > 0 THEN sum(s.weight * supporter.strength) / sum(s.weight)
              ELSE null END AS derived
}
WITH agent, old, new,
     coalesce(derived, toFloat(coalesce($revision.initial_strength, $m.revision_initial_strength)))
       AS initial
SET new.strength = initial,
    new.is_invalidated = initial < $m.thresholds[new.category] - $m.invalidation_tolerance
CREATE (rev:Revision {id: $revision.id, agent_id: $agent_id})
SET rev.trigger_tension = old.tension,
    rev.evidence_summary = $revision.evidence_summary,
    rev.reasoning = $revision.reasoning,
    rev.behavioral_changes = $revision.behavioral_changes,
    rev.depth = $revision.depth,
    rev.mode = $revision.mode,
    rev.reasoner = $revision.reasoner,
    rev.old_statement = old.statement,
    rev.new_statement = new.statement,
    rev.at = datetime($now)
CREATE (rev)-[:REVISED]->(old)
CREATE (rev)-[:PRODUCED]->(new)
WITH agent, old, new, rev
CALL (new) {
  OPTIONAL MATCH (new)-[h:HOLDS_IN]->(c:Context)
  RETURN collect(c.name) AS context_names, collect(h.strength) AS context_strengths
}
CALL (rev) {
  MATCH (parent:Revision {agent_id: $agent_id, id: $revision.parent_revision_id})
  CREATE (rev)-[:CASCADED_FROM]->(parent)
}
SET agent.event_seq = agent.event_seq + 1
CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: old.id, kind: 'revision',
                      action: 'superseded', revision_id: rev.id, seq: agent.event_seq,
                      old_strength: old.strength, new_strength: old.strength,
                      old_tension: old.tension, new_tension: old.tension,
                      at: datetime($now)})-[:OF]->(old)
SET agent.event_seq = agent.event_seq + 1
CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: new.id, kind: 'revision',
                      action: 'created', revision_id: rev.id, seq: agent.event_seq,
                      new_strength: new.strength, new_tension: 0.0, at: datetime($now),
                      context_names: context_names,
                      context_strengths: context_strengths})-[:OF]->(new)
WITH agent, old, new, rev
CALL (agent, old, new, rev) {
  MATCH (new)-[r:SUPPORTS]->(x:Belief)
  WITH agent, old, new, rev, r, x ORDER BY x.id
  CALL (agent, old, new, rev, r, x) {
    SET agent.event_seq = agent.event_seq + 1
    CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: x.id, kind: 'revision',
                          action: 'support_moved', revision_id: rev.id, seq: agent.event_seq,
                          old_strength: x.strength, new_strength: x.strength,
                          old_tension: x.tension, new_tension: x.tension,
                          supporter_id: new.id, old_supporter_id: old.id, weight: r.weight,
                          at: datetime($now),
                          note: 'SUPPORTS from ' + old.id + ' moved to its revision ' + new.id +
                                " ('" + left(new.statement, 120) + "') by revision " + rev.id +
                                ', weight ' + toString(r.weight)})-[:OF]->(x)
  }
}
CALL (agent, old, new, rev) {
  MATCH (x:Belief)-[r:SUPPORTS]->(new)
  WITH agent, old, new, rev, r, x ORDER BY x.id
  CALL (agent, old, new, rev, r, x) {
    SET agent.event_seq = agent.event_seq + 1
    CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: new.id,
                          kind: 'revision', action: 'support_linked', revision_id: rev.id,
                          seq: agent.event_seq,
                          old_strength: new.strength, new_strength: new.strength,
                          old_tension: new.tension, new_tension: new.tension,
                          supporter_id: x.id, weight: r.weight, old_weight: null,
                          at: datetime($now),
                          note: 'SUPPORTS from ' + x.id + " ('" + left(x.statement, 120) +
                                "') moved from " + old.id + ' by revision ' + rev.id +
                                ', weight ' + toString(r.weight)})-[:OF]->(new)
  }
}
CALL (agent, old, new, rev) {
  MATCH (new)-[c:CONTRADICTS]-(x:Belief)
  WITH agent, old, new, rev, c, x ORDER BY x.id
  CALL (agent, old, new, rev, c, x) {
    SET agent.event_seq = agent.event_seq + 1
    CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: x.id, kind: 'revision',
                          action: 'contradiction_moved', revision_id: rev.id,
                          seq: agent.event_seq,
                          old_strength: x.strength, new_strength: x.strength,
                          old_tension: x.tension, new_tension: x.tension,
                          contradicting_id: new.id, old_contradicting_id: old.id,
                          strength: c.strength, status: c.status, resolution: c.resolution,
                          at: datetime($now),
                          note: 'CONTRADICTS ' + old.id + ' moved to its revision ' + new.id +
                                " ('" + left(new.statement, 120) + "') by revision " + rev.id +
                                ', strength ' + toString(c.strength) + ', ' + c.status})-[:OF]->(x)
    SET agent.event_seq = agent.event_seq + 1
    CREATE (:BeliefEvent {id: randomUUID(), agent_id: $agent_id, belief_id: new.id,
                          kind: 'revision', action: 'contradiction_moved', revision_id: rev.id,
                          seq: agent.event_seq,
                          old_strength: new.strength, new_strength: new.strength,
                          old_tension: new.tension, new_tension: new.tension,
                          contradicting_id: x.id, strength: c.strength, status: c.status,
                          resolution: c.resolution, at: datetime($now),
                          note: 'CONTRADICTS ' + x.id + " ('" + left(x.statement, 120) +
                                "') moved from " + old.id + ' by revision ' + rev.id +
                                ', strength ' + toString(c.strength) + ', ' +
                                c.status})-[:OF]->(new)
  }
}
RETURN rev.id AS revision_id, old.id AS old_id, new.id AS new_id,
       rev.trigger_tension AS trigger_tension, new.strength AS new_strength
