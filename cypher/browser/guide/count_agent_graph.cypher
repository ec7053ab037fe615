// Guide, first slide: what the agent's graph holds, one row per kind of node: the kinds of its
// stories first, most numerous first, then the bookkeeping of search and scheduling
// (LexicalTerm, LexicalCorpus, Subject, ScheduledJob: small and grey in the style).
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per label:
//   kind :: STRING  the node label
//   nodes :: INTEGER  how many the agent has
MATCH (n {agent_id: $agent_id})
WITH labels(n)[0] AS kind, count(*) AS nodes
RETURN kind, nodes
ORDER BY kind IN ['LexicalTerm', 'LexicalCorpus', 'Subject', 'ScheduledJob'], nodes DESC, kind
