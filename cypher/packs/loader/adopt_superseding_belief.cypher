// After a pack upgrade superseded a belief (beliefs/revision/apply_revision, mode 'pack_upgrade'), the
// new belief is the pack's belief for the key: provenance, its prior (the pack's own figure) and
// the PROVIDES edge.
// Params: $agent_id (string), $pack_name (string), $rows (list of {id, key, prior_strength}).
// Returns: adopted (int).
MATCH (k:KnowledgePack {agent_id: $agent_id, name: $pack_name})
UNWIND $rows AS row
MATCH (b:Belief {id: row.id, agent_id: $agent_id})
SET b.source = 'pack', b.pack_name = $pack_name, b.pack_key = row.key,
    b.prior_strength = toFloat(row.prior_strength)
MERGE (k)-[:PROVIDES]->(b)
RETURN count(b) AS adopted
