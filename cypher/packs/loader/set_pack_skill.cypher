// Stores the skill a pack brings on its KnowledgePack node, or removes it when this version brings
// none (docs/packs.md §5). A stored skill takes the next number of the agent's skill counter, so
// the pack loaded last that brings a skill is the agent's skill. Run inside the loading
// transaction, after packs/loader/upsert_pack.
// Params: $agent_id (string), $pack_name (string), $skill (string: the skill as JSON, or null),
//         $skill_name (string or null), $skill_version (int or null).
// Returns: skill_seq (int, null when the pack brings no skill).
MATCH (agent:Agent {id: $agent_id})
MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
WITH agent, k, coalesce(agent.skill_seq, 0) + 1 AS next_seq
SET agent.skill_seq = CASE WHEN $skill IS NULL THEN agent.skill_seq ELSE next_seq END,
    k.skill = $skill, k.skill_name = $skill_name, k.skill_version = $skill_version,
    k.skill_seq = CASE WHEN $skill IS NULL THEN null ELSE next_seq END
RETURN k.skill_seq AS skill_seq
