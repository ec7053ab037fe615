// Bootstrap (run before any migration): one record per applied migration version and namespace.
// Params: none. Returns: nothing.
CREATE CONSTRAINT credence_migration_version IF NOT EXISTS
FOR (m:CredenceMigration) REQUIRE (m.namespace, m.version) IS UNIQUE
