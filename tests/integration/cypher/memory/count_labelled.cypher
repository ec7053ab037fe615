// Test probe: how many nodes of each memory label an agent has.
// Params: $agent_id (string).
// Returns: people, frames, tasks, notes, entities, rules, capabilities (ints).
RETURN COUNT { (n:Person {agent_id: $agent_id}) } AS people,
       COUNT { (n:Frame {agent_id: $agent_id}) } AS frames,
       COUNT { (n:Task {agent_id: $agent_id}) } AS tasks,
       COUNT { (n:Note {agent_id: $agent_id}) } AS notes,
       COUNT { (n:Entity {agent_id: $agent_id}) } AS entities,
       COUNT { (n:Rule {agent_id: $agent_id}) } AS rules,
       COUNT { (n:Capability {agent_id: $agent_id}) } AS capabilities
