// The agent's identity as a turn needs it (name, identity goal, terminal creed, the domain skill
// it works under), without the counts of agents/store/get_agent (which read every belief).
// Params: $agent_id (string).
// Returns: agent (map: id, name, identity_goal, terminal_creed, skill: the JSON of the skill its
// packs brought, the one of the pack loaded last (docs/packs.md §5), or null: the shipped
// accounting skill). No row if unknown.
MATCH (a:Agent {id: $agent_id})
OPTIONAL MATCH (k:KnowledgePack {agent_id: $agent_id})
  WHERE k.skill IS NOT NULL
WITH a, k
ORDER BY k.skill_seq DESC
LIMIT 1
RETURN a {.id, .name, .identity_goal, .terminal_creed, skill: k.skill} AS agent
