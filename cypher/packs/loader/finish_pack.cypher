// Records the loaded version on the KnowledgePack node.
// Params: $agent_id (string), $pack (map: name, version, industry, description, checksum).
// Returns: pack (map).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack.name})
SET k.version = $pack.version, k.industry = $pack.industry,
    k.description = $pack.description, k.checksum = $pack.checksum, k.loaded_at = datetime($now)
RETURN properties(k) AS pack
