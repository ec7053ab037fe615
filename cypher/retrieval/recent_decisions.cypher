// The decisions section's candidates (app/retrieval/decisions.py ranks them by the query): the
// agent's most recent decisions (docs/graph-model.md §2: a turn's decision about a work unit),
// newest first, with what seed 002's context line shows of them.
// Params: $agent_id (string), $scan (int: how many of the newest are read).
// Returns one record, rows: a list of maps (one record, not one per row:
//          GraphClient.read_collected), each with id, description (string), outcome (string or
//          null: success, partial, failure, rejected, neutral, pending), confidence (float or null:
//          finalised by the outcome, app/loop/decisions.py), mode (string or null), verb (string or
//          null), created_at (string: toString of the datetime), resolved_at (string or null): read
//          by app/graph/times.py for the few kept (the driver builds a datetime in ~90 µs).
MATCH (d:Decision {agent_id: $agent_id})
WITH d ORDER BY d.created_at DESC, d.id
LIMIT $scan
RETURN collect({
  id: d.id, description: d.description, outcome: d.outcome, confidence: d.confidence,
  mode: d.mode, verb: d.verb, created_at: toString(d.created_at),
  resolved_at: toString(d.resolved_at)
}) AS rows
