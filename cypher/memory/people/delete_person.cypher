// Deletes a person of an agent with their own data (the properties of the user model live on the
// node). Call graph/agent_scope/lock_agent first in the same transaction. What points at them
// stays and loses the link: their episodes (WITH), the evidence they gave (FROM, and its
// source_person id cleared), the beliefs learned from them (LEARNED_FROM), the revisions they
// were told of (TOLD); reporting lines (REPORTS_TO) go; an agent whose principal they were has
// none after, and is marked principal_deleted (an approval then needs a person with the
// authority it asks for: loop/approvals/read_answerer). The episodes they spoke keep their
// speaker as written, and their speaker_key becomes a tombstone no name produces (a leading
// space: app/memory/people/names.py name_key never starts with one), so a later person of that
// name does not meet the deleted person's turns as their own (retrieval's speaker match,
// episodes listed by speaker).
// Params: $agent_id (string), $person_id (string).
// Returns: name (string), episodes (int: the episodes that lost their link to them).
//          No row when the person is not the agent's.
MATCH (p:Person {agent_id: $agent_id, id: $person_id})
OPTIONAL MATCH (e:Episode)-[:WITH]->(p)
WITH p, count(DISTINCT e) AS episodes
CALL (p) {
  MATCH (e:Episode)-[:WITH {role: 'speaker'}]->(p)
  SET e.speaker_key = ' deleted person ' + p.id
}
CALL (p) {
  MATCH (ev:Evidence {agent_id: $agent_id, source_person: p.id})
  SET ev.source_person = null
}
CALL (p) {
  MATCH (agent:Agent {id: $agent_id, principal_id: p.id})
  SET agent.principal_id = null, agent.principal_deleted = true
}
WITH p, p.name AS name, episodes
DETACH DELETE p
RETURN name, episodes
