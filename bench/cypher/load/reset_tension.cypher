// Bench only: sets every tension of an agent's beliefs back to 0, so repeated measurements do not
// run into saturated (capped at 1) tension. Not part of the measured time.
// Params: $agent_id (string).
// Returns: reset (int).
MATCH (b:Belief {agent_id: $agent_id})
WHERE b.tension <> 0.0
SET b.tension = 0.0
RETURN count(b) AS reset
