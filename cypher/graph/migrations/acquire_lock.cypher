// Takes the migration lock of a namespace if it is free (or stale); otherwise reports its holder.
// Touching the node first takes Neo4j's write lock on it, so two runners cannot both see it free.
// Params: $namespace (string), $owner (string, unique per runner), $stale_after_s (float: a lock
//         older than this is considered abandoned).
// Returns: acquired (boolean), owner (string, the holder now), acquired_at (datetime).
MERGE (l:CredenceMigrationLock {namespace: $namespace})
SET l.touched = coalesce(l.touched, 0) + 1
WITH l, (l.owner IS NULL
         OR l.acquired_at < datetime() - duration({milliseconds: toInteger($stale_after_s * 1000)})) AS free
SET l.owner = CASE WHEN free THEN $owner ELSE l.owner END,
    l.acquired_at = CASE WHEN free THEN datetime() ELSE l.acquired_at END
RETURN l.owner = $owner AS acquired, l.owner AS owner, l.acquired_at AS acquired_at
