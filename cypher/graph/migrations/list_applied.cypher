// Lists the migrations recorded as applied in a namespace, oldest version first.
// Params: $namespace (string).
// Returns: version (int), description (string), file (string), checksum (string, sha256 hex),
//          applied_at (datetime), duration_ms (int).
MATCH (m:CredenceMigration {namespace: $namespace})
RETURN m.version AS version, m.description AS description, m.file AS file,
       m.checksum AS checksum, m.applied_at AS applied_at, m.duration_ms AS duration_ms
ORDER BY m.version
