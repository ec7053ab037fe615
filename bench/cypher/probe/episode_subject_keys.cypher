// The subject keys each of the given episodes mentions (MENTIONS edges to :Subject nodes), for
// bench/coverage_rerank.py.
// Params: $ids (list of strings: episode ids).
// Returns: id (string), keys (list of strings, empty when the episode mentions nothing).
UNWIND $ids AS id
MATCH (e:Episode {id: id})
OPTIONAL MATCH (e)-[:MENTIONS]->(n:Subject)
RETURN id, collect(n.key) AS keys
