// The names (lower case) that speak in the agent's episodes, as far as up to $scan of them say
// (app/retrieval/asked_people.py): read once per agent and process, at its first question that
// names someone, so that the next questions' vectors presume the right names are speakers.
// A presumption only: the question's own look-up (retrieval/question_speakers) decides.
// Params: $agent_id (string), $scan (int: episodes read at most).
// Returns: one row: keys (list of strings, each once).
MATCH (e:Episode {agent_id: $agent_id})
  WHERE e.speaker_key IS NOT NULL
WITH e.speaker_key AS key
LIMIT $scan
RETURN collect(DISTINCT key) AS keys
