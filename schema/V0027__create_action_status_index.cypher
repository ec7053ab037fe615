// Tool calls by status and start: the sweep that marks the calls a stopped process left 'running'
// interrupted (cypher/loop/tool_turns/interrupt_stale_calls.cypher) seeks them without scanning
// every Action.
CREATE INDEX action_status_created_at IF NOT EXISTS FOR (n:Action) ON (n.status, n.created_at);
