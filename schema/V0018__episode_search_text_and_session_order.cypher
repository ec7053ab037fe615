// Episodes get what relevance retrieval ranks by (issue 12, README "Episodes and the context
// API"): `search_text` ("<speaker>: <text>", the words that are indexed), `seq` (the order of
// arrival inside a session, the tie-break of equal occurred_at) and `NEXT` edges between the
// consecutive episodes of a session (the neighbour step of the episode search). The write paths
// (app/memory/episodes.py, app/memory/session_order.py) keep all three from now on. The fulltext
// index moves from `text` to `search_text`. Vectors are not touched here: an episode embedded
// before has no `embedding_scheme`, keeps its old vector (still searched) and gets the new one
// (previous turn + speaker + text) from `credence embed backfill`. Idempotent.
MATCH (e:Episode) WHERE e.search_text IS NULL
CALL (e) {
  // As app/memory/session_order.py search_text: a speaker named by role only is left out.
  SET e.search_text =
    CASE WHEN e.speaker IS NULL
              OR toLower(e.speaker) IN ['assistant', 'agent', 'system', 'ai', 'bot', 'user', 'human']
         THEN coalesce(e.text, e.user_message, '')
         ELSE e.speaker + ': ' + coalesce(e.text, e.user_message, '') END
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (s:Session) WHERE EXISTS { MATCH (e:Episode)-[:IN_SESSION]->(s) WHERE e.seq IS NULL }
CALL (s) {
  MATCH (e:Episode)-[:IN_SESSION]->(s)
  WITH e ORDER BY e.occurred_at, e.created_at, e.id
  WITH collect(e) AS ordered
  UNWIND range(0, size(ordered) - 1) AS i
  WITH ordered, i, ordered[i] AS e
  SET e.seq = i
  WITH ordered, i WHERE i > 0
  WITH ordered[i - 1] AS before, ordered[i] AS after
  MERGE (before)-[:NEXT]->(after)
} IN TRANSACTIONS OF 100 ROWS;
CREATE FULLTEXT INDEX episode_search_fulltext IF NOT EXISTS
FOR (n:Episode) ON EACH [n.search_text, n.user_message, n.response, n.agent_id];
DROP INDEX episode_text_fulltext IF EXISTS;
