// How a turn's episode records its conduct: its outcome and what its tier-3 audit cost.
// Params: $agent_id (string), $episode_id (string).
// Returns: outcome (string or null), coherence_penalty (float or null).
MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
RETURN e.outcome AS outcome, e.coherence_penalty AS coherence_penalty
