// Records on a pack's beliefs what the version being loaded gives them: `pack_statement` and
// `pack_importance`. The next version's figures are compared with them, so that a statement or
// an importance a person edited since is told apart from one the pack changed (docs/packs.md §3).
// Params: $agent_id (string), $rows (list of {id, statement, importance}).
// Returns: recorded (int).
UNWIND $rows AS row
MATCH (b:Belief {agent_id: $agent_id, id: row.id})
SET b.pack_statement = row.statement, b.pack_importance = toFloat(row.importance)
RETURN count(b) AS recorded
