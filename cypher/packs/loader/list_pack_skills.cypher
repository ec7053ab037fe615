// The skills an agent's packs brought, the one in force first (the highest skill_seq: the pack
// loaded last that brings a skill, docs/packs.md §5).
// Params: $agent_id (string).
// Returns: pack (string), name (string), version (int), skill_seq (int), skill (string: JSON).
MATCH (k:KnowledgePack {agent_id: $agent_id})
WHERE k.skill IS NOT NULL
RETURN k.name AS pack, k.skill_name AS name, k.skill_version AS version,
       k.skill_seq AS skill_seq, k.skill AS skill
ORDER BY k.skill_seq DESC
