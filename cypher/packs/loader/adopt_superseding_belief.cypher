// After a pack upgrade superseded a belief (beliefs/revision/apply_revision, mode 'pack_upgrade'), the
// new belief is the pack's belief for the key: provenance and PROVIDES edge.
// Params: $agent_id (string), $pack_name (string), $rows (list of {id, key}).
// Returns: adopted (int).
MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
UNWIND $rows AS row
MATCH (b:Belief {id: row.id, agent_id: $agent_id})
SET b.source = 'pack', b.pack_name = $pack_name, b.pack_key = row.key
MERGE (k)-[:PROVIDES]->(b)
RETURN count(b) AS adopted
