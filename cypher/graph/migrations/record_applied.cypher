// Records one migration as applied (after all its statements ran and its indexes are ONLINE).
// Params: $namespace (string), $migration (map: version int, description string, file string,
//         checksum string, duration_ms int).
// Returns: version (int).
CREATE (m:CredenceMigration {namespace: $namespace})
SET m.version = $migration.version,
    m.description = $migration.description,
    m.file = $migration.file,
    m.checksum = $migration.checksum,
    m.duration_ms = $migration.duration_ms,
    m.applied_at = datetime()
RETURN m.version AS version
