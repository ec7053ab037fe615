// The numbers of one capability of an agent, or the defaults when it has none in the domain.
// Params: $agent_id (string), $domain (string),
//         $defaults (map: proficiency float, success_rate float).
// Returns: state (map: proficiency, success_rate, experience_count). No row for an unknown agent.
MATCH (a:Agent {id: $agent_id})
OPTIONAL MATCH (a)-[:HAS_CAPABILITY]->(c:Capability {domain: $domain})
RETURN {proficiency: coalesce(c.proficiency, $defaults.proficiency),
        success_rate: coalesce(c.success_rate, $defaults.success_rate),
        experience_count: coalesce(c.experience_count, 0)} AS state
