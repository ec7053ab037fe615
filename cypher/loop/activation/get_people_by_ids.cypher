// The rows a turn reads of the people its message names (their ids found by the agent's index of
// names: loop/activation/get_turn_people_and_history reads only every person's id and name).
// Params: $agent_id (string), $ids (list of strings).
// Returns: people (list of {id, name, name_key, role, authority, relationship_value,
//          affect_valence, affect_stress, trust, knowledge, inferred_goals, successful_patterns}:
//          the last three JSON strings or null), in id order; one row.
OPTIONAL MATCH (p:Person {agent_id: $agent_id})
  WHERE p.id IN $ids
WITH p ORDER BY p.id
RETURN collect(p {.id, .name, .name_key, .role, .authority, .relationship_value, .affect_valence,
                  .affect_stress, .trust, .knowledge, .inferred_goals, .successful_patterns})
       AS people
