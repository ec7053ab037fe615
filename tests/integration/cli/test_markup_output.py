"""Every `credence` command prints stored and given text as written, never as rich markup: a
stray closing tag (``[/x]``) made a command end in a MarkupError traceback, and ``[bold]``
restyled the output and vanished from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from tests.support.agents import create_agent_over_rest

# Looks like rich markup: a closing tag with no opening one, and a style.
MARK = "[/x][bold]"


@dataclass(frozen=True)
class MarkedAgent:
    """An agent whose stored texts all hold MARK, and the ids a command needs."""

    id: str
    belief_id: str
    investigation_id: str


@pytest.fixture(scope="module")
def marked(client: TestClient) -> MarkedAgent:
    agent = create_agent_over_rest(client, f"Agent {MARK} Smith")
    base = f"/v1/agents/{agent}"

    def post(path: str, body: object) -> dict[str, str]:
        response = client.post(f"{base}/{path}", json=body)
        assert response.status_code in (200, 201), response.text
        found: dict[str, str] = response.json()
        return found

    belief = post(
        "beliefs", {"statement": f"Cash {MARK} is king", "category": "contextual", "strength": 0.95}
    )
    post("people", {"name": f"Bob {MARK} Jones", "role": f"{MARK}CFO"})
    post("working-memory/tasks", {"description": f"Close {MARK} March"})
    post("working-memory/notes", {"content": f"Remember {MARK} the float"})
    post("working-memory/entities", {"name": f"Acme {MARK} Ltd", "kind": "organization"})
    ledger = f"# Ledger {MARK} notes\n\nThe ledger {MARK} balances every month.\n"
    post("research/sources", {"files": [{"name": "ledger.md", "content": ledger}]})
    started = post("investigations", {"question": f"Is the ledger {MARK} balanced?"})
    return MarkedAgent(agent, belief["id"], started["id"])


Command = Callable[[MarkedAgent], list[str]]

COMMANDS: dict[str, tuple[Command, str]] = {
    "beliefs list": (lambda a: ["beliefs", "list"], f"Cash {MARK} is king"),
    "beliefs show": (lambda a: ["beliefs", "show", a.belief_id], f"Cash {MARK} is king"),
    "beliefs show --context": (
        lambda a: ["beliefs", "show", a.belief_id, "--context", "x[/y]"],
        "x[/y]",
    ),
    "beliefs add": (lambda a: ["beliefs", "add", f"Added {MARK} belief"], f"Added {MARK} belief"),
    "tension": (lambda a: ["tension"], f"Cash {MARK} is king"),
    "memory show (beliefs)": (lambda a: ["memory", "show"], f"Cash {MARK} is king"),
    "memory show (people)": (lambda a: ["memory", "show"], f"Bob {MARK} Jones"),
    "memory show (entities)": (lambda a: ["memory", "show"], f"Acme {MARK} Ltd"),
    "memory show (tasks)": (lambda a: ["memory", "show"], f"Close {MARK} March"),
    "memory show (notes)": (lambda a: ["memory", "show"], f"Remember {MARK} the float"),
    "memory tasks": (lambda a: ["memory", "tasks"], f"Close {MARK} March"),
    "memory learn": (
        lambda a: ["memory", "learn", f"Refunds {MARK} need two approvals", "--domain", MARK],
        f"Refunds {MARK} need two approvals",
    ),
    "context": (lambda a: ["context", "cash king"], f"Cash {MARK} is king"),
    "research sources list": (
        lambda a: ["research", "sources", "list"],
        f"Ledger {MARK} notes",
    ),
    "research search": (lambda a: ["research", "search", "ledger"], f"ledger {MARK} balances"),
    "research status": (
        lambda a: ["research", "status", a.investigation_id],
        f"Is the ledger {MARK} balanced?",
    ),
    "status": (lambda a: ["status"], f"Agent {MARK} Smith"),
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_stored_text_that_looks_like_markup_is_printed_as_written(
    name: str,
    cli: CliRunner,
    marked: MarkedAgent,
) -> None:
    arguments, expected = COMMANDS[name]

    result = cli.invoke(cli_app, [*arguments(marked), "--agent", marked.id])

    assert result.exit_code == 0, result.output
    assert expected in result.output, result.output
