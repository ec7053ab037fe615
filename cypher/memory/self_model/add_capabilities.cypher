// Gives an agent capabilities, merged on (agent_id, domain): an existing one keeps its numbers.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $success_rate (float: the prior of a new capability),
//         $capabilities (list of maps: domain string, proficiency float).
// Returns: added (int, capabilities merged).
MATCH (a:Agent {id: $agent_id})
UNWIND $capabilities AS seed
MERGE (c:Capability {agent_id: $agent_id, domain: seed.domain})
  ON CREATE SET c.id = randomUUID(),
                c.proficiency = toFloat(seed.proficiency),
                c.success_rate = toFloat($success_rate),
                c.experience_count = 0
MERGE (a)-[:HAS_CAPABILITY]->(c)
RETURN count(c) AS added
