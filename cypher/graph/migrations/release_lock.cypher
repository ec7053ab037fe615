// Releases the migration lock of a namespace if this runner holds it.
// Params: $namespace (string), $owner (string).
// Returns: released (boolean).
MATCH (l:CredenceMigrationLock {namespace: $namespace})
WITH l, l.owner = $owner AS mine
SET l.owner = CASE WHEN mine THEN null ELSE l.owner END,
    l.acquired_at = CASE WHEN mine THEN null ELSE l.acquired_at END
RETURN mine AS released
