"""Research mode: investigations that test hypotheses against sources, kept in the graph
(issue 16)."""
