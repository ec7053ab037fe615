// Deletes up to $batch_size of an agent's nodes (every agent-scoped label but Agent itself)
// with their relationships: one bounded batch, run again until it deletes fewer than asked.
// Each label is matched through its agent_id index; the list is every AgentScoped class of
// app/graph/models.py (tests/integration/agents/test_agents.py checks that nothing is left behind),
// and the scheduler's jobs of the agent (docs/loop.md §14).
// Params: $agent_id (string), $batch_size (int).
// Returns: deleted (int: nodes deleted by this batch).
CALL () {
  MATCH (n:BeliefEvent {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Evidence {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Belief {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Context {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Revision {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Episode {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:LexicalCorpus {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:LexicalTerm {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Subject {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Session {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Person {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Frame {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Task {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Note {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Entity {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Rule {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Capability {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Censor {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Decision {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Reason {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Approval {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Connection {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Tool {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:ScheduledJob {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Action {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:KnowledgePack {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:DissatisfactionSample {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:CorpusPassage {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:CorpusDocument {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Investigation {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Hypothesis {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Source {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:ResearchEvidence {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Conflict {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:ResearchStep {agent_id: $agent_id}) RETURN n
}
WITH DISTINCT n LIMIT $batch_size
DETACH DELETE n
RETURN count(*) AS deleted
