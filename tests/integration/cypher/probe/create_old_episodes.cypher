// Test setup: episodes as code older than migration V0018 wrote them (no search_text, no seq, no
// NEXT edges, a vector of the turn text alone without an embedding_scheme), in one session.
// Params: $agent_id (string), $session (string),
//         $episodes (list of maps: id, speaker, text, occurred_at (datetime), embedding (list)).
// Returns: id (string).
MERGE (s:Session {agent_id: $agent_id, key: $session})
  ON CREATE SET s.id = randomUUID()
WITH s
UNWIND $episodes AS row
CREATE (e:Episode {id: row.id, agent_id: $agent_id, speaker: row.speaker, text: row.text,
                   occurred_at: row.occurred_at, session_key: $session, salience: 1.0,
                   interference: 0, created_at: datetime()})
CREATE (e)-[:IN_SESSION]->(s)
WITH e, row
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
RETURN e.id AS id
