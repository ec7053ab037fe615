// Creates a person of an agent. Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $person_id (string, a new UUID), $now (datetime),
//         $person (map: name, name_key, email (nullable), role, seniority, authority,
//         interaction_frequency, interaction_count, context_relevance, relationship_value, trust,
//         affect_valence, affect_arousal, affect_stress, knowledge_level,
//         preferences (JSON string), birth_source, last_seen (datetime), and the person model
//         as JSON strings: knowledge, trust_history, inferred_goals, successful_patterns).
// Returns: person (map of the Person's properties).
MATCH (agent:Agent {id: $agent_id})
CREATE (p:Person {id: $person_id, agent_id: $agent_id})
SET p += $person,
    p.created_at = $now
RETURN properties(p) AS person
