// Records one turn's dissatisfaction and updates the streak of turns above the meditation level.
// Params: $agent_id (string), $value (float), $band (string), $above (boolean: value > the level).
// Returns: streak (int, consecutive turns above the level).
MATCH (a:Agent {id: $agent_id})
SET a.high_dissatisfaction_streak = CASE WHEN $above
      THEN coalesce(a.high_dissatisfaction_streak, 0) + 1 ELSE 0 END
CREATE (s:DissatisfactionSample {id: randomUUID(), agent_id: $agent_id, value: $value,
                                 band: $band, at: datetime()})
RETURN a.high_dissatisfaction_streak AS streak
