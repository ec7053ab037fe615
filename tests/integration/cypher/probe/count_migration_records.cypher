// Probe: how many migrations are recorded in a namespace. Params: $namespace (string).
// Returns: records (int).
MATCH (m:CredenceMigration {namespace: $namespace})
RETURN count(m) AS records
