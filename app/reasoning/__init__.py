"""Reasoners: the judgements the agent makes (offline deterministic, or Claude)."""
