// Data: a Person written without a relationship_value (by hand, or by code older than V0011)
// gets one by DESIGN §5: 0.6·authority + 0.2·interaction_frequency + 0.2·context_relevance,
// with an unknown authority read as 0.5 (seniority unknown) and missing numbers as 0.
// Every write in app/memory/people.py recomputes it from now on. Idempotent.
MATCH (p:Person) WHERE p.relationship_value IS NULL
CALL (p) {
  SET p.relationship_value = 0.6 * coalesce(p.authority, 0.5)
                             + 0.2 * coalesce(p.interaction_frequency, 0.0)
                             + 0.2 * coalesce(p.context_relevance, 0.0)
} IN TRANSACTIONS OF 10000 ROWS;
