"""``credence research start|status|resume|pause|cancel|report`` against the real Neo4j, over a
VitaminC corpus loaded with ``credence research sources add``."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app
from app.config import Settings
from app.graph.client import GraphClient
from app.research import store
from tools.eval_data.vitaminc import find_vitaminc, read_rows, write_corpus

MOROCCO = 4


def test_an_investigation_from_the_command_line(cli: CliRunner, agent: str, tmp_path: Path) -> None:
    path = find_vitaminc()
    assert path is not None
    rows = read_rows(path, 60)
    corpus = write_corpus(rows, tmp_path / "vitaminc.jsonl")
    loaded = cli.invoke(app, ["research", "sources", "add", str(corpus), "--agent", agent])
    assert loaded.exit_code == 0, loaded.output

    started = cli.invoke(app, ["research", "start", rows[MOROCCO].claim, "--agent", agent])

    assert started.exit_code == 0, started.output
    assert "supervisor" in started.output and "synthesize" in started.output
    assert re.search(r"finished.*verdict undecided", started.output), started.output
    [investigation_id] = re.findall(r"investigation ([0-9a-f-]{36}) of", started.output)
    status = cli.invoke(app, ["research", "status", investigation_id, "--agent", agent])
    assert status.exit_code == 0, status.output
    assert "unresolvable" in status.output and "hypotheses" in status.output
    report = cli.invoke(app, ["research", "report", investigation_id, "--agent", agent])
    assert report.exit_code == 0 and "Conflicts between sources" in report.output


def test_pause_resume_and_cancel_from_the_command_line(cli: CliRunner, agent: str) -> None:
    created = cli.invoke(
        app, ["research", "start", "Islay has nine distilleries", "--detach", "--agent", agent]
    )
    assert created.exit_code == 0, created.output
    [investigation_id] = re.findall(r"investigation ([0-9a-f-]{36}) of", created.output)
    paused = cli.invoke(app, ["research", "pause", investigation_id, "--agent", agent])
    assert paused.exit_code == 0 and "paused" in paused.output
    again = cli.invoke(app, ["research", "pause", investigation_id, "--agent", agent])
    assert again.exit_code == 1 and "investigation_state_conflict" in again.output
    resumed = cli.invoke(app, ["research", "resume", investigation_id, "--agent", agent])
    assert resumed.exit_code == 0 and "finished" in resumed.output, resumed.output
    cancelled = cli.invoke(app, ["research", "cancel", investigation_id, "--agent", agent])
    assert cancelled.exit_code == 1 and "finished" in cancelled.output


def test_a_blank_question_is_refused_and_starts_nothing(
    cli: CliRunner, client: TestClient, agent: str
) -> None:
    """A blank question once ran forever from the command line (the supervisor proposed again at
    every step, as no hypothesis came), and an empty one failed with exit code 0."""
    for question in ("   ", ""):
        started = cli.invoke(app, ["research", "start", question, "--agent", agent])

        assert started.exit_code == 1, started.output
        assert "invalid question: must not be blank" in started.output
        assert "Traceback" not in started.output
    assert client.get(f"/v1/agents/{agent}/investigations").json()["count"] == 0


def test_status_says_why_an_investigation_failed(
    cli: CliRunner, agent: str, settings: Settings
) -> None:
    """The API answered the failure's reason; ``research status`` printed none."""
    created = cli.invoke(
        app, ["research", "start", "Islay has nine distilleries", "--detach", "--agent", agent]
    )
    [investigation_id] = re.findall(r"investigation ([0-9a-f-]{36}) of", created.output)

    async def fail() -> None:  # as the runner marks a step that raised
        graph = GraphClient.from_settings(settings.neo4j)
        try:
            await store.change_status(
                graph, agent, investigation_id, ["running"], "failed",
                error="search step: ConnectionError: the corpus is unreachable",
            )  # fmt: skip
        finally:
            await graph.close()

    asyncio.run(fail())
    status = cli.invoke(app, ["research", "status", investigation_id, "--agent", agent])
    assert status.exit_code == 0, status.output
    flat = " ".join(status.output.split())
    assert "status failed" in flat
    assert "search step: ConnectionError: the corpus is unreachable" in flat
