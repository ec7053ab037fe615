// Guide, "A belief revised": the agent's most recent revision, and every event of the belief it
// replaced, oldest first: the pack that gave it, each piece of evidence that challenged it (who
// said it, their authority, the tension after), and the revision itself.
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per event of the revised belief (none: no revision yet):
//   seq :: INTEGER  the event's number in the agent's history
//   event :: STRING  kind/action (pack/created, contradiction/evidence, revision/superseded ...)
//   said_by :: STRING  the person whose words were the evidence (null: none)
//   authority :: FLOAT  their authority, 0..1
//   evidence :: STRING  what they said
//   tension_after :: FLOAT  the belief's tension after the event, two decimals
MATCH (r:Revision {agent_id: $agent_id})-[:REVISED]->(old:Belief)
WITH r, old ORDER BY r.at DESC, r.id LIMIT 1
MATCH (e:BeliefEvent)-[:OF]->(old)
OPTIONAL MATCH (ev:Evidence {agent_id: $agent_id})-[:CHALLENGES|REINFORCES|CONCERNS]->(old)
  WHERE ev.at = e.at AND e.kind = 'contradiction'
OPTIONAL MATCH (ev)-[:FROM]->(p:Person)
RETURN e.seq AS seq,
       e.kind + '/' + coalesce(e.action, '') AS event,
       p.name AS said_by,
       p.authority AS authority,
       ev.text AS evidence,
       round(e.new_tension, 2) AS tension_after
ORDER BY seq
LIMIT 40
