// Uniqueness of the UUID `id` per label (DESIGN §4). Every node also carries agent_id.
// Schema only; data changes go in their own files.
CREATE CONSTRAINT agent_id_unique IF NOT EXISTS FOR (n:Agent) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT belief_id_unique IF NOT EXISTS FOR (n:Belief) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT context_id_unique IF NOT EXISTS FOR (n:Context) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT belief_event_id_unique IF NOT EXISTS FOR (n:BeliefEvent) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT evidence_id_unique IF NOT EXISTS FOR (n:Evidence) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT revision_id_unique IF NOT EXISTS FOR (n:Revision) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episode_id_unique IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_id_unique IF NOT EXISTS FOR (n:Session) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT person_id_unique IF NOT EXISTS FOR (n:Person) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT frame_id_unique IF NOT EXISTS FOR (n:Frame) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT task_id_unique IF NOT EXISTS FOR (n:Task) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT note_id_unique IF NOT EXISTS FOR (n:Note) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT rule_id_unique IF NOT EXISTS FOR (n:Rule) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT capability_id_unique IF NOT EXISTS FOR (n:Capability) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT censor_id_unique IF NOT EXISTS FOR (n:Censor) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT decision_id_unique IF NOT EXISTS FOR (n:Decision) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT reason_id_unique IF NOT EXISTS FOR (n:Reason) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT approval_id_unique IF NOT EXISTS FOR (n:Approval) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT knowledge_pack_id_unique IF NOT EXISTS FOR (n:KnowledgePack) REQUIRE n.id IS UNIQUE;
