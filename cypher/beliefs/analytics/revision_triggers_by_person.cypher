// Whose evidence triggered revisions: challenging evidence behind revisions, per person.
// For each revision, the evidence that CHALLENGES the revised (old) belief up to the moment of
// the revision, grouped by the person it came from (Evidence.source_person, a Person id). The
// person's name is shown when such a Person exists, else the id, else 'unknown' (evidence with
// no source person).
// In Neo4j Browser: run the :param line below (with your agent's id), then this file.
// :param {agent_id: '<agent id>'}
// Params:
//   $agent_id :: STRING NOT NULL  required: the agent (MATCH (a:Agent) RETURN a.id, a.name)
// Returns one row per person, most revisions first (no rows: no revision had challenging
// evidence of its own, e.g. none yet, or only tension that flowed up from supporting beliefs):
//   person :: STRING  the Person's name, else the person id, else 'unknown'
//   person_id :: STRING  Evidence.source_person (null: no source person)
//   revisions :: INTEGER  revisions whose revised belief this person's evidence challenged
//   evidence :: INTEGER  pieces of challenging evidence behind those revisions
//   total_weight :: FLOAT  sum of their weights
//   tension_added :: FLOAT  tension they added to the revised beliefs (sum of tension_delta)
//   last_at :: DATETIME  the latest of those pieces of evidence
MATCH (r:Revision {agent_id: $agent_id})-[:REVISED]->(old:Belief)
MATCH (ev:Evidence)-[:CHALLENGES]->(old)
WHERE ev.at <= r.at
OPTIONAL MATCH (p:Person {agent_id: $agent_id, id: ev.source_person})
WITH ev.source_person AS person_id, coalesce(p.name, ev.source_person, 'unknown') AS person, r, ev
RETURN person,
       person_id,
       count(DISTINCT r) AS revisions,
       count(ev) AS evidence,
       sum(ev.weight) AS total_weight,
       sum(ev.tension_delta) AS tension_added,
       max(ev.at) AS last_at
ORDER BY revisions DESC, tension_added DESC, person
