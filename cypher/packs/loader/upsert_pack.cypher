// The KnowledgePack node of an agent (created on first load). Call graph/agent_scope/lock_agent first.
// Reserves $events sequence numbers for the beliefs the load creates.
// Params: $agent_id (string), $pack (map: name, version, industry, description, checksum),
//         $events (int).
// Returns: pack_id (string), first_seq (int: the first reserved sequence number).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
MERGE (k:KnowledgePack {agent_id: $agent_id, name: $pack.name})
  ON CREATE SET k.id = randomUUID(), k.first_loaded_at = datetime($now)
SET agent.event_seq = agent.event_seq + $events
RETURN k.id AS pack_id, agent.event_seq - $events + 1 AS first_seq
