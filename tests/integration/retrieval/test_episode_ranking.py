"""Each ranking factor of the episode search (issue 12) on a real Neo4j with real embeddings: the
speaker in the indexed text, the previous turn in the vector, score fusion, the neighbour step,
the session order that the import keeps (NEXT edges, re-stitching, idempotence) and the
migration + backfill that give stored episodes the same."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.embeddings import store as embedding_store
from app.embeddings.embedder import shared_embedder
from app.graph.catalog import file_statements
from app.graph.client import GraphClient
from app.resources import resource_dir
from app.retrieval.settings import RetrievalSettings
from tests.support.memory_rest import context, import_episodes
from tests.support.old_episodes import write_old_episodes
from tests.support.runtime import runtime_of

T0 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)


def _at(minutes: int) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


def _turn(eid: str, speaker: str, text: str, minute: int, session: str = "s1") -> dict[str, Any]:
    return {
        "external_id": eid,
        "speaker": speaker,
        "text": text,
        "session": session,
        "occurred_at": _at(minute),
    }


def _client(settings: Settings, **retrieval: Any) -> TestClient:
    changed = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update=retrieval)}
    )
    return TestClient(create_app(changed))


@pytest.fixture(scope="module")
def no_neighbours(settings: Settings) -> Iterator[TestClient]:
    with _client(settings, neighbour_weight=0.0) as client:
        yield client


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = body["sections"]["episodes"]["items"]
    return items


async def _embed(text: str) -> np.ndarray[Any, Any]:
    vectors = await shared_embedder(Settings().embeddings).embed([text])
    assert vectors is not None
    return np.asarray(vectors[0])


def test_a_question_naming_a_person_finds_what_that_person_said(
    client: TestClient, agent: str
) -> None:
    import_episodes(
        client,
        agent,
        _turn("mel", "Melanie", "We adopted a cat; we adopted her from the shelter.", 0),
        _turn("car", "Caroline", "I adopted a dog last month.", 1, session="s2"),
    )

    body = context(client, agent, "Which pet was adopted by Caroline?", mode="fulltext")

    # Melanie's turn says "adopted" twice; only the speaker's name in the indexed text puts
    # Caroline's first.
    assert [i["external_id"] for i in _items(body)][:2] == ["car", "mel"]


async def test_a_reply_is_embedded_with_the_turn_it_answers(
    client: TestClient, agent: str, test_graph: GraphClient
) -> None:
    import_episodes(
        client,
        agent,
        _turn("q", "Caroline", "Did you go to the pottery workshop on Saturday?", 0),
        _turn("a", "Melanie", "Yes, and I made a bowl!", 1),
    )

    rows = await test_graph.read("probe/session_chain", agent_id=agent, session="s1")
    reply = next(r for r in rows if r["external_id"] == "a")
    expected = await _embed("Caroline: Did you go to the pottery workshop on Saturday?\n"
                      "Melanie: Yes, and I made a bowl!")  # fmt: skip
    assert reply["search_text"] == "Melanie: Yes, and I made a bowl!"
    assert reply["embedding_scheme"] == 2
    assert float(np.dot(np.asarray(reply["embedding"]), expected)) > 0.999
    # ... so the reply is found by what it answers, through the vector index alone.
    body = context(client, agent, "What did Melanie make at the pottery workshop?", mode="vector")
    assert _items(body)[0]["external_id"] in {"a", "q"}
    assert {i["external_id"]: i["vector_rank"] for i in _items(body)}["a"] <= 2


def test_the_turn_after_a_hit_is_lifted_by_its_neighbour(
    client: TestClient, no_neighbours: TestClient, agent: str
) -> None:
    import_episodes(
        client,
        agent,
        _turn("ask", "Caroline", "What is your favourite hiking trail?", 0),
        _turn("answer", "Melanie", "The one along the ridge near Boulder.", 1),
        _turn("other", "Melanie", "I bought new paint brushes.", 0, session="s2"),
    )

    lifted = _items(context(client, agent, "favourite hiking trail", mode="fulltext"))
    plain = _items(context(no_neighbours, agent, "favourite hiking trail", mode="fulltext"))

    by_id = {i["external_id"]: i for i in lifted}
    assert "answer" in by_id and by_id["answer"]["fulltext_rank"] is None
    assert by_id["answer"]["neighbour_of"] == by_id["ask"]["id"]
    weight = RetrievalSettings().neighbour_weight
    assert by_id["answer"]["neighbour_lift"] == pytest.approx(weight * 1.0)
    assert by_id["ask"]["score"] > by_id["answer"]["score"]
    assert "other" not in by_id
    assert [i["external_id"] for i in plain] == ["ask"]


def test_only_the_best_candidates_lift_their_neighbours(
    settings: Settings, client: TestClient, agent: str
) -> None:
    # Fulltext hits in three sessions, two followed by a reply that shares no word with the
    # query: with neighbour_sources 1 only the best hit's reply is lifted (and found).
    import_episodes(
        client,
        agent,
        _turn("best", "Ann", "Where is the trail map for the ridge trail hike?", 0, "a"),
        _turn("best-reply", "Bob", "In the blue folder.", 1, "a"),
        _turn("second", "Ann", "Any trail tips?", 0, "b"),
        _turn("second-reply", "Bob", "Bring water.", 1, "b"),
        # The weakest hit scores 0 once normalised, so it lifts nothing either way.
        _turn(
            "weakest",
            "Ann",
            "The trail was long and the weather was cold and grey all day.",
            0,
            "c",
        ),
    )
    query = "ridge trail map"
    every = {i["external_id"]: i for i in _items(context(client, agent, query, mode="fulltext"))}
    assert every["best-reply"]["neighbour_of"] == every["best"]["id"]
    assert every["second-reply"]["neighbour_of"] == every["second"]["id"]
    with _client(settings, neighbour_sources=1) as one:
        found = {i["external_id"]: i for i in _items(context(one, agent, query, mode="fulltext"))}
    assert found["best-reply"]["neighbour_of"] == found["best"]["id"]
    assert found["best-reply"]["score"] == pytest.approx(every["best-reply"]["score"])
    assert "second-reply" not in found
    assert found["second"]["score"] == pytest.approx(every["second"]["score"])


def test_score_fusion_mixes_normalised_scores_with_one_weight(
    settings: Settings, client: TestClient, agent: str
) -> None:
    import_episodes(
        client,
        agent,
        _turn("e1", "Ann", "The quarterly budget review went well.", 0, session="a"),
        _turn("e2", "Ann", "We reviewed the marketing budget for next year.", 0, session="b"),
        _turn("e3", "Ann", "My cat sleeps all day on the sofa.", 0, session="c"),
    )
    query = "budget review"

    fused = _items(context(client, agent, query))
    vector = _items(context(client, agent, query, mode="vector"))
    for item in fused:
        for key in ("vector_score", "fulltext_score"):
            assert item[key] is None or 0.0 <= item[key] <= 1.0
        share = RetrievalSettings().vector_share
        expected = share * (item["vector_score"] or 0.0) + (1 - share) * (
            item["fulltext_score"] or 0.0
        )
        lift = item["neighbour_lift"]
        assert item["score"] == pytest.approx(expected + lift, rel=1e-6)
    assert max(i["vector_score"] for i in fused if i["vector_score"] is not None) == 1.0
    # All weight on the vector index ranks as vector mode does.
    with _client(settings, vector_share=1.0) as vector_only:
        assert [i["id"] for i in _items(context(vector_only, agent, query))] == [
            i["id"] for i in vector
        ]
    # Reciprocal-rank fusion stays available to compare against.
    with _client(settings, fusion="rrf", neighbour_weight=0.0) as rrf:
        for item in _items(context(rrf, agent, query)):
            expected = sum(
                weight / (10.0 + rank)
                for weight, rank in ((2.0, item["vector_rank"]), (1.0, item["fulltext_rank"]))
                if rank is not None
            )
            assert item["score"] == pytest.approx(expected, rel=1e-6)


async def test_the_import_keeps_each_session_in_order(
    client: TestClient, agent: str, test_graph: GraphClient
) -> None:
    first = [
        _turn("t1", "Ann", "Hello there.", 0),
        _turn("t3", "Bob", "Fine, thanks.", 10),
    ]
    import_episodes(client, agent, *first)
    # A later batch: one turn that belongs between the stored ones, one after them.
    import_episodes(
        client, agent, _turn("t4", "Ann", "Good to hear.", 20), _turn("t2", "Bob", "Hi!", 5)
    )
    # The same batch again changes nothing (import is idempotent on external_id).
    again = import_episodes(client, agent, *first)
    assert again["created"] == 0

    rows = await test_graph.read("probe/session_chain", agent_id=agent, session="s1")
    ids = {r["id"]: r["external_id"] for r in rows}
    assert [r["external_id"] for r in rows] == ["t1", "t2", "t3", "t4"]
    assert [[ids[n] for n in r["next"]] for r in rows] == [["t2"], ["t3"], ["t4"], []]
    assert [r["seq"] for r in rows] == [0, 2, 1, 3]
    # t3's previous turn changed from t1 to t2: its vector was made again with t2 before it.
    t3 = next(r for r in rows if r["external_id"] == "t3")
    expected = await _embed("Bob: Hi!\nBob: Fine, thanks.")
    assert float(np.dot(np.asarray(t3["embedding"]), expected)) > 0.999


async def test_migration_and_backfill_give_old_episodes_the_new_structure(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = f"test-{uuid.uuid4()}"
    texts = [("Ann", "Shall we meet at the lake?"), ("Bob", "Yes, at noon.")]
    embedder = shared_embedder(Settings().embeddings)
    vectors = await embedder.embed([text for _, text in texts])
    assert vectors is not None
    # The backfill stores vectors under the agent's lock: the episodes' agent must exist.
    await test_graph.write("probe/create_agent_node", id=agent)
    await write_old_episodes(test_graph, agent, texts, start=T0, vectors=vectors)
    migration = resource_dir("schema") / "V0018__episode_search_text_and_session_order.cypher"
    for statement in [s.text for s in file_statements(migration.read_text(encoding="utf-8"))]:
        await graph.run_autocommit(statement, "re-run V0018")

    rows = await test_graph.read("probe/session_chain", agent_id=agent, session="old")
    assert [r["search_text"] for r in rows] == [
        "Ann: Shall we meet at the lake?",
        "Bob: Yes, at noon.",
    ]
    assert [r["seq"] for r in rows] == [0, 1]
    assert rows[0]["next"] == [rows[1]["id"]]
    assert [r["embedding_scheme"] for r in rows] == [None, None]

    report = await embedding_store.backfill(graph, embedder, agent_id=agent, labels=("Episode",))
    assert report.stored == {"Episode": 2}
    rows = await test_graph.read("probe/session_chain", agent_id=agent, session="old")
    assert [r["embedding_scheme"] for r in rows] == [2, 2]
    expected = await _embed("Ann: Shall we meet at the lake?\nBob: Yes, at noon.")
    assert float(np.dot(np.asarray(rows[1]["embedding"]), expected)) > 0.999
    # Nothing is left to do: a second backfill stores nothing.
    again = await embedding_store.backfill(graph, embedder, agent_id=agent, labels=("Episode",))
    assert again.stored == {"Episode": 0}


async def test_the_speaker_migration_keys_old_episodes_by_their_speaker(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    # V0031's data statement (its index statements rebuild the shared vector index, so they are
    # not run again here): an episode stored without speaker_key gets its speaker in lower case,
    # and running it again changes nothing.
    agent = f"test-{uuid.uuid4()}"
    await write_old_episodes(test_graph, agent, [("Ann", "Hello."), ("BOB", "Hello.")], start=T0)
    migration = resource_dir("schema") / "V0031__index_episode_speakers.cypher"
    backfill = file_statements(migration.read_text(encoding="utf-8"))[0].text
    for _ in range(2):  # idempotent
        await graph.run_autocommit(backfill, "re-run V0031's backfill")
        rows = await test_graph.read("probe/episode_speaker_keys", agent_id=agent)
        assert [(r["speaker"], r["speaker_key"]) for r in rows] == [("Ann", "ann"), ("BOB", "bob")]


def test_a_success_and_a_recent_memory_weigh_more_than_an_equal_plain_one(
    client: TestClient, agent: str
) -> None:
    # "Recent" is measured from the app's clock (the suite's, which CREDENCE_TEST_NOW may move).
    now = runtime_of(client).clock.now()
    text = "We closed the books for the quarter on time."
    import_episodes(
        client,
        agent,
        {"external_id": "plain", "speaker": "Ann", "text": text, "session": "p",
         "occurred_at": (now - timedelta(days=400)).isoformat()},
        {"external_id": "success", "speaker": "Ann", "text": text, "session": "s",
         "outcome": "success", "occurred_at": (now - timedelta(days=400)).isoformat()},
        {"external_id": "week", "speaker": "Ann", "text": text, "session": "w",
         "occurred_at": (now - timedelta(days=2)).isoformat()},
        {"external_id": "month", "speaker": "Ann", "text": text, "session": "m",
         "occurred_at": (now - timedelta(days=20)).isoformat()},
    )  # fmt: skip

    items = {i["external_id"]: i for i in _items(context(client, agent, "closed the books"))}

    base = items["plain"]["score"]
    defaults = RetrievalSettings()
    # Identical texts, so identical fused scores: only the factors tell them apart.
    assert items["success"]["score"] == pytest.approx(base * defaults.success_multiplier)
    # Recency is added after the other factors (seed 003's form, ``recency = "additive"``).
    assert items["week"]["score"] == pytest.approx(base + defaults.recency_bonus_7d)
    assert items["month"]["score"] == pytest.approx(base + defaults.recency_bonus_30d)
