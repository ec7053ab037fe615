// Guide, first slide: what the agent's graph holds, one row per kind of node.
// Params:
//   $agent_id :: STRING NOT NULL  the agent
// Returns one row per label, most numerous first:
//   kind :: STRING  the node label
//   nodes :: INTEGER  how many the agent has
MATCH (n {agent_id: $agent_id})
WITH labels(n)[0] AS kind, count(*) AS nodes
RETURN kind, nodes
ORDER BY nodes DESC, kind
