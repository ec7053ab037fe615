// Creates a batch of episodes (the caller has taken the agent lock and removed external ids the
// agent already holds), each linked to its session, its speaker (a Person: the oldest of that
// name, or micro-born when new) and the beliefs it is about. The session order (seq, NEXT edges) is planned by
// app/memory/session_order.py and linked by memory/episodes/link_session_order. A long batch
// comes in parts, one call each in the one transaction (app/memory/episodes.py
// EPISODE_CHARS_PER_QUERY).
// Params: $agent_id (string),
//         $episodes (list of maps: id, external_id, speaker, speaker_key (the speaker's name
//         key, app/memory/people/names.py name_key: lower case, white space collapsed), person (the micro-birth property
//         map of the speaker, app/memory/people.py micro_birth_properties, with name_key; null
//         when the agent itself spoke), text, user_message, response, occurred_at (datetime), session,
//         outcome, emotional_valence, surprise, coherence_penalty (float or null: negative when
//         the turn's tier-3 audit failed), frame, actions, trivial, interference,
//         search_text (string), seq (int or null: place of arrival in the session),
//         mentioned_dates (list of ISO date strings: app/text/dates.py),
//         lexical_terms (list of strings: the counted tokens of its indexed text, in order,
//         repeats kept), token_count (int: every token of it; app/memory/lexical_stats.py),
//         embedding (float32 VECTOR or null), about (list of belief ids)),
//         $scheme (int: the embedding scheme of the given vectors),
//         $embedding_model (string: the model that made the vectors, app/embeddings/embedder.py model_id).
// The agent counts the episodes written since its last reflection (episodes_since_reflection:
// the loop reflects every N of them, app/loop/sessions.py reflect_if_due).
// Returns: id (string), external_id (string), person_id (string or null).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
OPTIONAL MATCH (agent:Agent {id: $agent_id})
FOREACH (a IN CASE WHEN agent IS NULL THEN [] ELSE [agent] END |
  SET a.episodes_since_reflection = coalesce(a.episodes_since_reflection, 0) + size($episodes))
WITH 1 AS go
// The agent's alias keys (docs/memory.md §2), read once for the batch: [key, person] pairs, one
// per key (a merge gives a key to one person only).
CALL () {
  MATCH (p:Person {agent_id: $agent_id}) WHERE p.alias_keys IS NOT NULL
  UNWIND p.alias_keys AS alias
  RETURN collect([alias, p]) AS aliases
}
UNWIND $episodes AS row
CREATE (e:Episode {id: row.id, agent_id: $agent_id})
SET e.external_id = row.external_id,
    e.speaker = row.speaker,
    e.speaker_key = row.speaker_key,
    e.text = row.text,
    e.search_text = row.search_text,
    e.seq = row.seq,
    e.user_message = row.user_message,
    e.response = row.response,
    e.occurred_at = row.occurred_at,
    e.created_at = datetime($now),
    e.outcome = row.outcome,
    e.emotional_valence = row.emotional_valence,
    e.surprise = row.surprise,
    e.coherence_penalty = row.coherence_penalty,
    e.frame = row.frame,
    e.actions = row.actions,
    e.trivial = row.trivial,
    e.interference = row.interference,
    e.salience = 1.0,
    e.is_peak = false,
    e.is_end = false,
    e.consolidated = false,
    e.revision_triggered = false,
    e.session_key = row.session,
    e.mentioned_dates = row.mentioned_dates,
    e.lexical_terms = row.lexical_terms,
    e.token_count = row.token_count
WITH e, row, aliases
CALL (e, row) {
  WITH e, row WHERE row.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'embedding', toFloatList(row.embedding))
  SET e.embedding_scheme = $scheme, e.embedding_model = $embedding_model
}
CALL (e, row) {
  WITH e, row WHERE row.session IS NOT NULL
  MERGE (s:Session {agent_id: $agent_id, key: row.session})
    ON CREATE SET s.id = randomUUID(), s.started_at = row.occurred_at
  SET s.started_at = CASE WHEN row.occurred_at < s.started_at THEN row.occurred_at
                          ELSE s.started_at END
  CREATE (e)-[:IN_SESSION]->(s)
}
CALL (e, row, aliases) {
  WITH e, row, aliases WHERE row.person IS NOT NULL
  // The speaker is the oldest person of that name (two people may share one: a look-up by
  // name takes the oldest, memory/people/find_person_by_name), else the person who holds the
  // name as an alias (a person merged into them was known by it), else a new one. A turn of an
  // alias is keyed by the person's own name, as a merge keys the merged person's turns.
  OPTIONAL MATCH (named:Person {agent_id: $agent_id, name_key: row.person.name_key})
  WITH e, row, aliases, named ORDER BY named.created_at, named.id LIMIT 1
  WITH e, row,
       coalesce(named, [pair IN aliases WHERE pair[0] = row.person.name_key | pair[1]][0]) AS known
  CALL (row, known) {
    WITH row, known WHERE known IS NULL
    CREATE (born:Person {agent_id: $agent_id})
    SET born += row.person, born.id = randomUUID(), born.created_at = datetime($now)
    RETURN born AS p
    UNION
    WITH known WHERE known IS NOT NULL
    RETURN known AS p
  }
  SET p.last_seen = CASE WHEN p.last_seen IS NULL OR row.occurred_at > p.last_seen
                         THEN row.occurred_at ELSE p.last_seen END
  CREATE (e)-[:WITH {role: 'speaker'}]->(p)
  SET e.speaker_key = p.name_key
  RETURN p.id AS person_id
  UNION
  WITH row WHERE row.person IS NULL
  RETURN null AS person_id
}
CALL (e, row) {
  UNWIND row.about AS belief_id
  MATCH (b:Belief {id: belief_id, agent_id: $agent_id})
  MERGE (e)-[:ABOUT]->(b)
}
RETURN e.id AS id, e.external_id AS external_id, person_id
