"""`credence tension` lists the --limit most tense beliefs, most tense first (it listed every
active belief, newest first, whatever --limit said)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from tests.support.agents import create_agent_over_rest


def test_tension_lists_the_most_tense_beliefs_up_to_the_limit(
    cli: CliRunner, client: TestClient
) -> None:
    agent = create_agent_over_rest(client, "Tense")
    ids = []
    for statement in ("Invoices are paid within 30 days", "Cash is predictable", "Fees are low"):
        response = client.post(
            f"/v1/agents/{agent}/beliefs", json={"statement": statement, "category": "contextual"}
        )
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    evidence = {"text": "Acme paid after 45 days", "stance": "contradicting"}
    assert client.post(f"/v1/agents/{agent}/beliefs/{ids[0]}/evidence", json=evidence).is_success

    result = cli.invoke(cli_app, ["tension", "--limit", "2", "--agent", agent])

    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    assert len(rows) == 2, result.output
    assert ids[0][:8] in rows[0]  # the one evidence contradicted, the newest last
