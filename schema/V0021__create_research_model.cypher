// Research mode (issue 16): investigations, their hypotheses, the sources they found, the
// evidence a source gives on a hypothesis, conflicts between sources, and the steps taken.
// Uniqueness of the UUID `id` per label (DESIGN §4), plus the natural keys that make a resumed
// step record nothing twice: one Source per investigation + kind + ref, one stance of a source
// on a hypothesis, one conflict per hypothesis and pair of sources, one step per ordinal.
// Range indexes on what is filtered on: an agent's investigations by status (resume, list) and
// start time (paging), an agent's conflicts by status (/context shows the open ones); agent_id
// on every label (deleting an agent finds its nodes label by label).
CREATE CONSTRAINT investigation_id_unique IF NOT EXISTS FOR (n:Investigation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT hypothesis_id_unique IF NOT EXISTS FOR (n:Hypothesis) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT source_id_unique IF NOT EXISTS FOR (n:Source) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT research_evidence_id_unique IF NOT EXISTS FOR (n:ResearchEvidence) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT conflict_id_unique IF NOT EXISTS FOR (n:Conflict) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT research_step_id_unique IF NOT EXISTS FOR (n:ResearchStep) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT source_found_once IF NOT EXISTS
FOR (n:Source) REQUIRE (n.investigation_id, n.kind, n.ref) IS UNIQUE;
CREATE CONSTRAINT research_evidence_once IF NOT EXISTS
FOR (n:ResearchEvidence) REQUIRE (n.hypothesis_id, n.source_id) IS UNIQUE;
CREATE CONSTRAINT conflict_once IF NOT EXISTS
FOR (n:Conflict) REQUIRE (n.hypothesis_id, n.pair) IS UNIQUE;
CREATE CONSTRAINT research_step_once IF NOT EXISTS
FOR (n:ResearchStep) REQUIRE (n.investigation_id, n.ordinal) IS UNIQUE;
CREATE INDEX investigation_agent_status IF NOT EXISTS
FOR (n:Investigation) ON (n.agent_id, n.status);
CREATE INDEX investigation_agent_started IF NOT EXISTS
FOR (n:Investigation) ON (n.agent_id, n.started_at);
CREATE INDEX investigation_agent IF NOT EXISTS FOR (n:Investigation) ON (n.agent_id);
CREATE INDEX hypothesis_agent IF NOT EXISTS FOR (n:Hypothesis) ON (n.agent_id);
CREATE INDEX research_evidence_agent IF NOT EXISTS FOR (n:ResearchEvidence) ON (n.agent_id);
CREATE INDEX conflict_agent IF NOT EXISTS FOR (n:Conflict) ON (n.agent_id);
CREATE INDEX source_agent IF NOT EXISTS FOR (n:Source) ON (n.agent_id);
CREATE INDEX conflict_agent_status IF NOT EXISTS FOR (n:Conflict) ON (n.agent_id, n.status);
CREATE INDEX research_step_agent IF NOT EXISTS FOR (n:ResearchStep) ON (n.agent_id);
