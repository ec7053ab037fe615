// What a turn reads of who is there and what came before, in one round trip: the id and name of
// every person of the agent (the message's mentions are found among their names), the
// speaker's row with the topics of their latest turns, and the session's latest turns. The rows
// of the other people the message names are read after the mentions are found
// (loop/activation/get_people_by_ids): an agent's every row cost twice its names (2,000 people:
// 17 against 8 ms a read, bench/README.md).
// Params: $agent_id (string), $session (string or null: no history), $limit (int: turns),
//         $speaker_key (string or null: the speaker's name_key; null reads no speaker),
//         $topic_episodes (int: the speaker's latest episodes whose topics count),
//         $topics (int: topics returned).
// Returns: names (list of [id, name]: every person, and each alias of a person that no person has
//          as their name, as written, as a
//          name of theirs), speakers (the rows of the people of the speaker's name, as
//          loop/activation/get_people_by_ids returns them, oldest first as
//          memory/people/find_person_by_name takes them: two people may share a name; when none
//          has it, the person who holds it as an alias, docs/memory.md §2), speaker_topics (list of
//          topics, most recent first, each as the form of the word those episodes use most, as
//          memory/people/list_person_topics shows it), history (list of {speaker, message, response},
//          newest first: no time, which the turn does not read). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (p:Person {agent_id: agent.id})
  WITH collect(p) AS everyone
  WITH everyone, [q IN everyone | q.name_key] AS taken
  UNWIND everyone AS p
  WITH p, taken, coalesce(p.alias_keys, []) AS keys,
       coalesce(p.alias_names, p.alias_keys, []) AS written
  // An alias that is some person's name is not read as the holder's (a person who has
  // the name wins, docs/memory.md §2: a distinct "Bob" added before or after a merge).
  UNWIND [p.name] + [i IN range(0, size(keys) - 1) WHERE NOT keys[i] IN taken |
                     coalesce(written[i], keys[i])] AS name
  RETURN collect([p.id, name]) AS names
}
CALL (agent) {
  OPTIONAL MATCH (named:Person {agent_id: agent.id, name_key: $speaker_key})
  WITH named ORDER BY named.created_at, named.id
  WITH collect(named) AS named
  OPTIONAL CALL (named) {
    WITH named WHERE named = []
    MATCH (aliased:Person {agent_id: $agent_id}) WHERE $speaker_key IN aliased.alias_keys
    RETURN aliased ORDER BY aliased.created_at, aliased.id LIMIT 1
  }
  RETURN [p IN named + CASE WHEN aliased IS NULL THEN [] ELSE [aliased] END |
          p {.id, .name, .name_key, .role, .authority, .relationship_value,
             .affect_valence, .affect_stress, .trust, .knowledge, .inferred_goals,
             .successful_patterns}] AS speakers
}
CALL (agent, speakers) {
  OPTIONAL MATCH (speaker:Person)<-[:WITH]-(e:Episode)
    WHERE speaker.id IN [p IN speakers | p.id] AND speaker.agent_id = agent.id
  WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
  LIMIT $topic_episodes
  OPTIONAL MATCH (e)-[m:MENTIONS]->(s:Subject {kind: 'topic'})
  WITH s, count(e) AS times, max(e.occurred_at) AS last_at, collect(m.surface) AS surfaces
  WHERE s IS NOT NULL
  ORDER BY last_at DESC, times DESC, s.key
  LIMIT $topics
  CALL (surfaces) {
    UNWIND CASE WHEN surfaces = [] THEN [null] ELSE surfaces END AS surface
    WITH surface, count(*) AS uses
    ORDER BY uses DESC, size(surface), surface
    LIMIT 1
    RETURN surface
  }
  WITH s, last_at, times, coalesce(surface, substring(s.key, 6)) AS topic
  ORDER BY last_at DESC, times DESC, s.key
  RETURN collect(topic) AS speaker_topics
}
CALL (agent) {
  OPTIONAL MATCH (:Session {agent_id: agent.id, key: $session})<-[:IN_SESSION]-(e:Episode)
  WITH e ORDER BY e.occurred_at DESC, e.created_at DESC
  LIMIT $limit
  RETURN collect(CASE WHEN e IS NOT NULL THEN {speaker: e.speaker,
                      message: coalesce(e.user_message, e.text), response: e.response} END)
         AS history
}
RETURN names, speakers, speaker_topics, history
