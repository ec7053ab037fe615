// Bootstrap (run before any migration): one lock node per migration namespace, so MERGE on it
// cannot create twins when two runners start at once.
// Params: none. Returns: nothing.
CREATE CONSTRAINT credence_migration_lock_namespace IF NOT EXISTS
FOR (l:CredenceMigrationLock) REQUIRE l.namespace IS UNIQUE
