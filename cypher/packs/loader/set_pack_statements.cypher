// Records on a pack's beliefs the statement the version being loaded gives them
// (`pack_statement`): the next version's statement is compared with it, so that a statement a
// person edited since is told apart from one the pack changed (docs/packs.md §3).
// Params: $agent_id (string), $rows (list of {id, statement}).
// Returns: recorded (int).
UNWIND $rows AS row
MATCH (b:Belief {agent_id: $agent_id, id: row.id})
SET b.pack_statement = row.statement
RETURN count(b) AS recorded
