// Data: what the code now records, brought to data written before it, where the old data tells
// it (docs/packs.md §3, docs/memory.md §2). Idempotent: each statement writes only what is
// missing (a property still null, a second TOLD edge, a speaker_key not yet a tombstone).
//
// 1. pack_statement (the statement a pack gave its belief; packs/loader/set_pack_given): a
//    belief a pack provides was created with the pack's text (packs/loader/create_pack_beliefs,
//    or the pack_upgrade successor adopted by adopt_superseding_belief), and the only writer of
//    a statement since is an edit by hand (beliefs/store/update_belief), whose 'manual'
//    'updated' event has always noted the text it replaced ("statement was: ..."). So the
//    statement the pack gave is the text the earliest such note names, else the stored one.
//    Not inferable: a statement a person edited to the very text a later version then gave
//    (the loader before pack_statement kept it as unchanged); it is recorded as the pack's
//    first text, so the belief counts as edited by hand and the person's text stands.
// 2. pack_importance (the importance a pack gave): for a belief a pack load created (its
//    'pack' 'created' event) that no version has updated since ('pack' 'updated' events come
//    from code that records pack_importance), the importance before the first edit by hand
//    that noted one ("importance was: ..."), else the stored one. Not inferable, left null
//    (compared by its stored importance, as before): a belief whose first noted edit changed
//    its statement (an edit of both notes only the statement), and a pack_upgrade successor
//    (it took its predecessor's importance, possibly a person's).
// 3. A revision told to two people later merged had two TOLD edges to the survivor (the merge
//    copied both): the earliest telling's edge (by `at`, then episode_id) is kept, as
//    memory/people/merge_people keeps it now. TOLD edges are otherwise MERGEd
//    (loop/revisits/mark_told): one per revision and person.
// 4. Episodes of a person deleted before the tombstone (memory/people/delete_person) kept the
//    person's speaker_key, so a later namesake met their turns as its own. Every episode of a
//    person speaker has been linked to its Person by a WITH {role: 'speaker'} edge since
//    episodes exist (memory/episodes/create_episodes: a speaker that is not the agent is always
//    found or micro-born; a merge moves the edge), and only a deletion takes it away. The
//    episodes without one are the agent's own speakers ('assistant', 'agent', 'system', 'ai',
//    'bot': app/memory/session_order.py AGENT_SPEAKERS) and a turn with no speaker (speaker
//    'user', keyed 'user' by V0034, no person); the others are a deleted person's, whether or
//    not a person of that name came later (that namesake is the one the tombstone is for). They
//    get the tombstone ' deleted person (before V0035)' (the deleted person's id is not kept
//    anywhere, so all of them share one; no name key starts with a space). Not inferable: a
//    deleted person whose name key was 'user' (an import's speaker "User"): their episodes
//    cannot be told from turns with no speaker, and keep the key.
MATCH (b:Belief)
WHERE b.pack_statement IS NULL AND b.statement IS NOT NULL
  AND EXISTS { (:KnowledgePack)-[:PROVIDES]->(b) }
CALL (b) {
  OPTIONAL MATCH (e:BeliefEvent {kind: 'manual', action: 'updated'})-[:OF]->(b)
  WHERE e.note STARTS WITH 'statement was: '
  WITH e ORDER BY e.seq, e.at
  LIMIT 1
  RETURN substring(e.note, size('statement was: ')) AS first_statement
}
CALL (b, first_statement) {
  SET b.pack_statement = coalesce(first_statement, b.statement)
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (b:Belief)
WHERE b.pack_importance IS NULL AND b.importance IS NOT NULL
  AND EXISTS { (:KnowledgePack)-[:PROVIDES]->(b) }
  AND EXISTS { (:BeliefEvent {kind: 'pack', action: 'created'})-[:OF]->(b) }
  AND NOT EXISTS { (:BeliefEvent {kind: 'pack', action: 'updated'})-[:OF]->(b) }
CALL (b) {
  OPTIONAL MATCH (e:BeliefEvent {kind: 'manual', action: 'updated'})-[:OF]->(b)
  WHERE e.note IS NOT NULL
  WITH e ORDER BY e.seq, e.at
  LIMIT 1
  RETURN e.note AS first_note
}
WITH b, CASE WHEN first_note IS NULL THEN b.importance
             WHEN first_note STARTS WITH 'importance was: '
             THEN toFloat(substring(first_note, size('importance was: ')))
             ELSE null END AS given
WHERE given IS NOT NULL
CALL (b, given) {
  SET b.pack_importance = given
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (r:Revision)-[t:TOLD]->(p:Person)
// The earliest first; a telling without a time after every one with a time.
WITH r, p, t ORDER BY t.at IS NULL, t.at, t.episode_id, elementId(t)
WITH r, p, collect(t) AS told
WHERE size(told) > 1
UNWIND tail(told) AS extra
CALL (extra) {
  DELETE extra
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (e:Episode)
WHERE e.speaker_key IS NOT NULL AND NOT e.speaker_key STARTS WITH ' '
  AND NOT e.speaker_key IN ['assistant', 'agent', 'system', 'ai', 'bot', 'user']
  AND NOT EXISTS { (e)-[:WITH {role: 'speaker'}]->(:Person) }
CALL (e) {
  SET e.speaker_key = ' deleted person (before V0035)'
} IN TRANSACTIONS OF 10000 ROWS;
