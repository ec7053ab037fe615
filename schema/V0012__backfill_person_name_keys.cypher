// Data: a Person written without a name_key (by hand in Browser, or by code older than V0011)
// gets one, so case-insensitive look-ups (micro-birth, mentions) find it. Every writer in
// app/memory and cypher/episodes sets name_key itself from now on. Idempotent.
MATCH (p:Person) WHERE p.name_key IS NULL AND p.name IS NOT NULL
CALL (p) {
  SET p.name_key = toLower(trim(p.name))
} IN TRANSACTIONS OF 10000 ROWS;
