"""Time in the episode ranking (real Neo4j): the dates a turn mentions are resolved against the
day it was said and stored; the context item carries them; a "when" question lifts the turns
that mention a date, a date the question names lifts the turns of that date; the session
neighbourhood cap spreads the list over sessions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory.episodes import EpisodeBatch, EpisodeIn, import_episodes
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings

OFFLINE = EmbeddingSettings(enabled=False)
NOW = datetime(2024, 1, 10, tzinfo=UTC)


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


async def _agent(graph: GraphClient, settings: Settings, *rows: tuple[str, str, str, str]) -> str:
    agent = (await create_agent(graph, AgentCreate(name="Timed"))).id
    batch = EpisodeBatch(
        episodes=[
            EpisodeIn(
                external_id=eid,
                speaker="Caroline",
                text=text,
                occurred_at=_at(day),
                session=session,
            )
            for eid, day, session, text in rows
        ]
    )
    await import_episodes(graph, shared_embedder(OFFLINE), settings.retrieval, agent, batch)
    return agent


async def _items(
    graph: GraphClient, agent: str, q: str, retrieval: RetrievalSettings, k: int = 10
) -> list[dict[str, Any]]:
    request = ContextRequest(q=q, k=k, sections=["episodes"], mode="fulltext")
    context = await build_context(
        graph, shared_embedder(OFFLINE), retrieval, agent, request, now=NOW
    )
    section = context.sections["episodes"]
    assert section.error is None
    return section.items


async def test_a_when_question_finds_the_turn_with_the_resolved_date(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await _agent(
        graph,
        settings,
        ("said", "2023-05-08T13:56:00", "s1", "I went to the support group yesterday."),
        ("loud", "2023-08-20T10:00:00", "s2", "The support group, the support group meeting!"),
        ("else", "2023-09-01T10:00:00", "s3", "Nice weather."),
    )
    q = "When did Caroline go to the support group?"
    plain = await _items(graph, agent, q, RetrievalSettings(neighbour_weight=0.0, dated_bonus=0))
    timed = await _items(graph, agent, q, RetrievalSettings(neighbour_weight=0.0, dated_bonus=2.0))

    assert [item["external_id"] for item in plain][:2] == ["loud", "said"]
    assert [item["external_id"] for item in timed][:2] == ["said", "loud"]
    said = timed[0]
    assert said["mentioned_dates"] == ["2023-05-07"]
    assert str(said["occurred_at"]).startswith("2023-05-08")  # the session's day


async def test_a_named_month_lifts_the_turns_of_that_month(
    graph: GraphClient, settings: Settings
) -> None:
    agent = await _agent(
        graph,
        settings,
        ("may", "2023-05-09T10:00:00", "s1", "Caroline, Caroline, Caroline!"),
        ("aug", "2023-08-20T10:00:00", "s2", "Caroline hiked."),
        ("else", "2023-10-01T10:00:00", "s4", "Nice weather."),
        ("told", "2023-09-02T10:00:00", "s3", "Caroline hiked last month."),
    )
    q = "What did Caroline do in August 2023?"
    plain = await _items(graph, agent, q, RetrievalSettings(neighbour_weight=0.0))
    dated = await _items(
        graph, agent, q, RetrievalSettings(neighbour_weight=0.0, date_match_bonus=3.0)
    )

    assert plain[0]["external_id"] == "may"
    assert {item["external_id"] for item in dated[:2]} == {"aug", "told"}


async def test_the_moment_cap_spreads_the_list_over_sessions(
    graph: GraphClient, settings: Settings
) -> None:
    rows = [
        (f"a{i}", f"2023-05-08T10:{i:02d}:00", "a", f"We talked about pottery class {i}.")
        for i in range(4)
    ] + [("b0", "2023-06-01T10:00:00", "b", "My kids loved the pottery.")]
    agent = await _agent(graph, settings, *rows)
    q = "pottery class"
    plain = await _items(graph, agent, q, RetrievalSettings(), k=2)
    spread = await _items(graph, agent, q, RetrievalSettings(moment_cap=1, moment_window=10), k=2)

    assert {item["session"] for item in plain} == {"a"}
    assert {item["session"] for item in spread} == {"a", "b"}
