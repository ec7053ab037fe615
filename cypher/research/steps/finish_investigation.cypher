// The synthesize step's end of an investigation: its verdict and markdown report, finished.
// Params: $agent_id (string), $investigation_id (string), $verdict (confirmed/refuted/undecided),
//         $report (string: markdown).
// Returns: status (string).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (i:Investigation {agent_id: $agent_id, id: $investigation_id})
SET i.status = 'finished',
    i.verdict = $verdict,
    i.report = $report,
    i.finished_at = datetime($now)
RETURN i.status AS status
