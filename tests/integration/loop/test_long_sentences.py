"""A message that is one very long sentence (a pasted log line) is a turn like any other: the
claims learned from it are cut to a belief's length where they are made, never refused by a
model deep in the turn (which answered 500 turn_failed)."""

from __future__ import annotations

from app.text.claims import MAX_STATEMENT_CHARS
from tests.integration.loop.conftest import Agent

_WORDS = "the nightly ledger export wrote row {n} with account code {n} to the reconciliation file"


def _one_sentence(opening: str, size: int = 8000) -> str:
    parts = [opening]
    n = 0
    while sum(len(part) + 1 for part in parts) < size:
        parts.append(_WORDS.format(n=n))
        n += 1
    return " ".join(parts)[: size - 1].rstrip() + "."


def test_an_8000_character_fact_is_learned_cut_to_a_statement(agent: Agent) -> None:
    message = _one_sentence("Our supplier portal log says")

    result = agent.chat(message)

    learned = result["learned"]
    assert learned, result
    for item in learned:
        statement = item["statement"]
        assert len(statement) <= MAX_STATEMENT_CHARS
        assert statement.startswith("Our supplier portal log says the nightly ledger export")


def test_an_8000_character_guidance_is_learned_cut_to_a_statement(agent: Agent) -> None:
    message = _one_sentence("From now on always check that")

    result = agent.chat(message)

    assert result["learned"], result
    statement = result["learned"][0]["statement"]
    assert 1000 < len(statement) <= MAX_STATEMENT_CHARS
