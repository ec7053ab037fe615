// Reports the connected server's kernel version and edition.
// Params: none.
// Returns: version (string, e.g. 2026.08.1), edition (string: community or enterprise).
CALL dbms.components() YIELD name, versions, edition
WHERE name = 'Neo4j Kernel'
RETURN versions[0] AS version, edition
