// Guide, "Dissatisfaction over time": one sample per observed turn, oldest first, with its
// band, the change since the turn before and the revisions made in between.
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per sample (at most the last 60; none: no turn yet):
//   turn :: INTEGER  1 for the first sample shown
//   dissatisfaction :: FLOAT  D, 0..1, three decimals
//   band :: STRING  low / medium / high
//   change :: FLOAT  D minus the previous sample's (null for the first)
//   revisions :: INTEGER  revisions made since the previous sample
//   at :: DATETIME  when the sample was recorded
MATCH (s:DissatisfactionSample {agent_id: $agent_id})
WITH s ORDER BY s.at DESC, s.id LIMIT 61
WITH collect(s) AS newest_first
WITH reverse(newest_first) AS samples
UNWIND range(0, size(samples) - 1) AS i
WITH samples, i, samples[i] AS s, CASE WHEN i > 0 THEN samples[i - 1] END AS previous
WHERE size(samples) <= 60 OR i > 0
RETURN i + CASE WHEN size(samples) <= 60 THEN 1 ELSE 0 END AS turn,
       round(s.value, 3) AS dissatisfaction,
       s.band AS band,
       round(s.value - previous.value, 3) AS change,
       COUNT { (r:Revision {agent_id: $agent_id})
               WHERE r.at <= s.at AND (previous IS NULL OR r.at > previous.at) } AS revisions,
       s.at AS at
ORDER BY turn
