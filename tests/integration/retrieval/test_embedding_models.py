"""Vectors that know their model, on a real Neo4j: an agent embedded by all-MiniLM-L6-v2 is
searched without vectors by an API running e5-small-v2 (no search mixes two models' vectors, and
the start-up count says a reindex is needed); `credence embed reindex`'s work re-embeds it in
batches while an API of the old model keeps answering on the old vectors, resumes after a stop,
does nothing the second time; then the e5 API finds by vector what MiniLM found."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.api.app import create_app
from app.cli.main import app as cli_app
from app.config import Settings
from app.embeddings import reindex as reindexing
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.client import GraphClient
from tests.support.agents import create_agent_over_rest
from tests.support.memory_rest import context, import_episodes

MINILM, E5 = "all-minilm-l6-v2", "e5-small-v2-q"
T0 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
TURNS = [
    ("Alice", "I finally learned to bake sourdough bread at home."),
    ("Bob", "My car broke down on the motorway again."),
    ("Alice", "We are flying to Lisbon for a week in June."),
    ("Bob", "The quarterly report is due to my manager on Friday."),
    ("Alice", "Our cat knocked the plant off the window sill."),
]
QUESTION = "What kind of bread does Alice make?"


def _settings(settings: Settings, model: str) -> Settings:
    embeddings = settings.embeddings.model_copy(update={"model": model})
    return settings.model_copy(update={"embeddings": embeddings})


@contextmanager
def _api(settings: Settings, model: str) -> Iterator[TestClient]:
    with TestClient(create_app(_settings(settings, model))) as client:
        yield client


def _embedder(settings: Settings, model: str) -> Embedder:
    return shared_embedder(_settings(settings, model).embeddings)


def _episode(
    external_id: str, speaker: str, text: str, minute: int = 0, session: str | None = None
) -> dict[str, Any]:
    """One episode to import, ``minute`` minutes after T0 (in ``session`` when given)."""
    episode = {
        "external_id": external_id,
        "speaker": speaker,
        "text": text,
        "occurred_at": (T0 + timedelta(minutes=minute)).isoformat(),
    }
    return episode if session is None else {**episode, "session": session}


def _agent_embedded_by(settings: Settings, model: str, *episodes: dict[str, Any]) -> str:
    """A new agent holding ``episodes``, imported through an API running ``model``."""
    with _api(settings, model) as client:
        agent = create_agent_over_rest(client)
        import_episodes(client, agent, *episodes)
    return agent


def _vector_hits(client: TestClient, agent: str) -> list[Any]:
    body = context(client, agent, QUESTION, mode="vector", section="episodes")
    return [item["external_id"] for item in body["sections"]["episodes"]["items"]]


class Stopped(Exception):
    pass


async def test_a_database_of_minilm_vectors_is_reindexed_to_e5(
    settings: Settings, graph: GraphClient
) -> None:
    agent = _agent_embedded_by(
        settings,
        MINILM,
        *(  # one turn a session: each vector is its turn alone
            _episode(f"t{i}", speaker, text, minute=i, session=f"s{i}")
            for i, (speaker, text) in enumerate(TURNS)
        ),
    )
    with _api(settings, MINILM) as old:
        assert _vector_hits(old, agent)[0] == "t0"
    counts = await reindexing.count_by_model(graph, agent)
    assert {(c.label, c.model, c.vectors) for c in counts} == {("Episode", MINILM, len(TURNS))}
    message = reindexing.mismatch_message(counts, E5)
    assert message is not None and "credence embed reindex" in message and MINILM in message

    # The e5 API never compares its query vector with MiniLM's: nothing is found by vector.
    with _api(settings, E5) as new:
        assert _vector_hits(new, agent) == []

    # A reindex stopped after its first batch leaves the vectors in use untouched ...
    e5 = _embedder(settings, E5)

    def stop(agent_id: str, label: str, done: int) -> None:
        raise Stopped

    with pytest.raises(Stopped):
        await reindexing.reindex(graph, e5, agent, batch_size=2, progress=stop)
    counts = await reindexing.count_by_model(graph, agent)
    assert {(c.model, c.next_model, c.replaced) for c in counts if c.replaced} == {(MINILM, E5, 2)}
    assert reindexing.to_reindex(counts, E5) == len(TURNS) - 2
    with _api(settings, MINILM) as old:  # ... so the old model's API still answers on them
        assert _vector_hits(old, agent)[0] == "t0"

    # Resumed, it embeds the rest only, then puts them all in use.
    report = await reindexing.reindex(graph, e5, agent, batch_size=2)
    assert report.available and report.agents == [agent]
    assert report.embedded["Episode"] == len(TURNS) - 2
    assert report.swapped["Episode"] == len(TURNS)
    counts = await reindexing.count_by_model(graph, agent)
    assert {(c.label, c.model, c.vectors, c.replaced) for c in counts} == {
        ("Episode", E5, len(TURNS), 0)
    }
    assert reindexing.mismatch_message(counts, E5) is None
    again = await reindexing.reindex(graph, e5, agent)
    assert again.agents == [] and sum(again.embedded.values()) == 0

    with _api(settings, E5) as new:
        assert _vector_hits(new, agent)[0] == "t0"
    with _api(settings, MINILM) as old:
        assert _vector_hits(old, agent) == []


async def test_new_vectors_record_the_model_that_made_them(
    settings: Settings, graph: GraphClient
) -> None:
    agent = _agent_embedded_by(settings, E5, _episode("a", "Alice", "Hello there."))
    counts = await reindexing.count_by_model(graph, agent)
    assert [(c.label, c.model) for c in counts] == [("Episode", E5)]


def test_the_cli_counts_and_reindexes(
    settings: Settings, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = _agent_embedded_by(settings, MINILM, _episode("a", "Alice", "I bake bread."))
    monkeypatch.setenv("CREDENCE_EMBEDDINGS__MODEL", E5)
    monkeypatch.setenv("CREDENCE_EMBEDDINGS__CACHE_PATH", "")
    status = cli.invoke(cli_app, ["embed", "status", "--vectors"])
    assert status.exit_code == 0, status.output
    assert "reindex needed" in status.output and MINILM in status.output
    done = cli.invoke(cli_app, ["embed", "reindex", "--agent", agent])
    assert done.exit_code == 0, done.output
    assert "1 vectors re-embedded now, 1 agent(s) switched" in done.output
    again = cli.invoke(cli_app, ["embed", "reindex", "--agent", agent])
    assert "0 vectors re-embedded now, 0 agent(s) switched" in again.output
