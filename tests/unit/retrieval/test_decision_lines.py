"""Seed 002's line of a past decision in the context."""

from __future__ import annotations

from app.retrieval.decisions import decision_line


def test_the_line_shows_outcome_description_and_confidence() -> None:
    line = decision_line("success", "Reconcile the Chase account", 0.8)
    assert line == "- [success] Reconcile the Chase account (confidence: 0.80)"


def test_a_decision_without_an_outcome_reads_pending() -> None:
    assert decision_line(None, "Note the audit date", 0.55) == (
        "- [pending] Note the audit date (confidence: 0.55)"
    )
