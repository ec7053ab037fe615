// Whether episodes have a vector, the scheme it was made under, and their interference.
// Params: $agent_id (string), $ids (list of episode ids).
// Returns: id (string), has_vector (boolean), scheme (int or null), interference (int), in the
// order of $ids.
UNWIND $ids AS episode_id
MATCH (e:Episode {agent_id: $agent_id, id: episode_id})
RETURN e.id AS id, e.embedding IS NOT NULL AS has_vector, e.embedding_scheme AS scheme,
       e.interference AS interference
