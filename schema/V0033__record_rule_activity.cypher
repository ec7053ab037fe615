// Data: rules take the lifecycle of a pack's censors and beliefs (docs/packs.md §3): a rule a
// pack version dropped is retired (is_active false, deactivated_at, retired_in_version), never
// deleted, and every reader skips it. A rule stored before this migration was acting: it
// becomes is_active. Every writer sets the flag from now on (memory/rules/create_rule,
// packs/loader/upsert_pack_rules). The graph does not record which rule keys the loaded version
// of a pack has, so a rule an upgrade dropped before this migration is retired by the next load
// of its pack (any load, an unchanged reload included). Idempotent.
MATCH (r:Rule) WHERE r.is_active IS NULL
CALL (r) {
  SET r.is_active = true
} IN TRANSACTIONS OF 10000 ROWS;
