// Completes a chat turn's episode (created by memory/episodes/create_episodes in the same transaction):
// the response, how the turn ran, and the frame it ran in; the turn's session (if any) records
// when it was last active (an idle session is closed after a timeout) and is open again. The response joins the
// words the episode is scored by (its stored lexical terms and length) and the agent's lexical
// statistics (its length, and the document frequency of each term the episode did not hold yet:
// app/memory/lexical_stats.py), once: when the episode had no response yet, and only for an
// episode that stores its terms (older ones are scored by their text).
// Params: $agent_id (string), $episode_id (string), $turn (map: response (string),
//         supervision_mode (string), dissatisfaction (float), revision_triggered (boolean),
//         frame (string), decision_id (string or null), model_calls (int), input_tokens (int),
//         output_tokens (int), reasoners (list of strings: judgement: reasoner)),
//         $response_terms (list of strings: the response's counted tokens, in order),
//         $response_tokens (int: every token of the response).
// Returns: id (string).
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
CALL (e) {
  WITH e WHERE e.response IS NULL AND e.lexical_terms IS NOT NULL
  WITH e, e.lexical_terms AS held
  SET e.lexical_terms = held + $response_terms,
      e.token_count = e.token_count + $response_tokens
  WITH held
  OPTIONAL MATCH (c:LexicalCorpus {id: $agent_id})
  SET c.length = c.length + $response_tokens
  WITH DISTINCT held
  UNWIND $response_terms AS term
  WITH DISTINCT held, term WHERE NOT term IN held
  MERGE (t:LexicalTerm {id: $agent_id + '|' + term})
    ON CREATE SET t.agent_id = $agent_id, t.term = term, t.df = 0
  SET t.df = t.df + 1
}
SET e.response = $turn.response,
    e.supervision_mode = $turn.supervision_mode,
    e.dissatisfaction = $turn.dissatisfaction,
    e.revision_triggered = $turn.revision_triggered,
    e.model_calls = $turn.model_calls,
    e.input_tokens = $turn.input_tokens,
    e.output_tokens = $turn.output_tokens,
    e.reasoners = $turn.reasoners,
    e.kind = 'turn'
WITH e
CALL (e) {
  MATCH (f:Frame {agent_id: $agent_id, key: $turn.frame})
  MERGE (e)-[:IN_FRAME]->(f)
}
CALL (e) {
  MATCH (d:Decision {agent_id: $agent_id, id: $turn.decision_id})
  MERGE (d)-[:IN_TURN]->(e)
}
CALL (e) {
  MATCH (e)-[:IN_SESSION]->(s:Session)
  // A turn in a closed session opens it again: it closes (and is summarised) anew, when idle.
  SET s.last_active = e.occurred_at, s.closed_at = null
}
RETURN e.id AS id
