"""The context API answers the retrieval scenarios of the memory issue (real Neo4j, real
embeddings): peak-end salience, interference, contested beliefs, agent isolation, degraded mode,
failure isolation, budgets and bad input."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.retrieval.settings import RetrievalSettings
from tests.support.memory_rest import context, import_episodes

PARTY = "Bart danced at the Christmas party and felt very happy."


def _ids(body: dict[str, Any], section: str, key: str = "id") -> list[Any]:
    return [item[key] for item in body["sections"][section]["items"]]


def _belief(client: TestClient, agent: str, statement: str, **fields: Any) -> str:
    response = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": statement, "category": "contextual", **fields},
    )
    assert response.status_code == 201, response.text
    belief_id: str = response.json()["id"]
    return belief_id


@pytest.fixture(scope="module")
def no_interference_client(settings: Settings) -> Iterator[TestClient]:
    """Interference switched off, so two identical memories differ only in salience."""
    quiet = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"interference_penalty": 0.0})}
    )
    with TestClient(create_app(quiet)) as test_client:
        yield test_client


def test_a_peak_episode_outranks_a_plain_one_of_equal_similarity(
    no_interference_client: TestClient,
) -> None:
    client = no_interference_client
    agent = client.post("/v1/agents", json={"name": "Peaky"}).json()["id"]
    import_episodes(
        client,
        agent,
        {
            "external_id": "plain",
            "speaker": "Bart",
            "text": PARTY,
            "session": "a",
            "emotional_valence": 0.1,
            "occurred_at": "2024-01-01T10:00:00Z",
        },
        {
            "external_id": "a-end",
            "speaker": "Bart",
            "text": "We cleaned up the garden.",
            "session": "a",
            "emotional_valence": 0.9,
            "occurred_at": "2024-01-01T11:00:00Z",
        },
        {
            "external_id": "b-start",
            "speaker": "Bart",
            "text": "The train was late today.",
            "session": "b",
            "occurred_at": "2024-01-02T10:00:00Z",
        },
        {
            "external_id": "peak",
            "speaker": "Bart",
            "text": PARTY,
            "session": "b",
            "emotional_valence": 1.0,
            "occurred_at": "2024-01-02T11:00:00Z",
        },
        {
            "external_id": "b-end",
            "speaker": "Bart",
            "text": "Then we went home.",
            "session": "b",
            "occurred_at": "2024-01-02T12:00:00Z",
        },
        end_sessions=True,
    )

    body = context(client, agent, "Do you remember the Christmas party dance?", k=5)
    items = {i["external_id"]: i for i in body["sections"]["episodes"]["items"]}

    assert items["peak"]["salience"] == 2.0 and items["plain"]["salience"] == 1.0
    assert items["peak"]["vector_rank"] is not None and items["plain"]["vector_rank"] is not None
    assert _ids(body, "episodes", "external_id")[0] == "peak"
    assert items["peak"]["score"] > items["plain"]["score"]


@pytest.fixture(scope="module")
def interference_client(settings: Settings) -> Iterator[TestClient]:
    """The interference penalty switched on (it is off by default: it lowered recall on the
    benchmarks, bench/retrieval_tuning.py)."""
    penalised = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"interference_penalty": 0.5})}
    )
    with TestClient(create_app(penalised)) as test_client:
        yield test_client


def test_interference_lowers_a_repeated_memory(interference_client: TestClient) -> None:
    client = interference_client
    agent = client.post("/v1/agents", json={"name": "Interfered"}).json()["id"]
    import_episodes(
        client,
        agent,
        {"external_id": "party", "speaker": "Bart", "text": PARTY, "occurred_at": "2023-12-25"},
    )
    before = context(client, agent, "the Christmas party dance", section="episodes")
    import_episodes(
        client,
        agent,
        {
            "external_id": "party-again",
            "speaker": "Bart",
            "occurred_at": "2024-12-25",
            # The same words: only interference tells the two memories apart (a paraphrase
            # left their order to the embedding model's taste).
            "text": PARTY,
        },
    )
    after = context(client, agent, "the Christmas party dance", section="episodes")

    old_before = next(i for i in before["sections"]["episodes"]["items"])
    old_after = next(
        i for i in after["sections"]["episodes"]["items"] if i["external_id"] == "party"
    )
    assert old_after["interference"] == 1
    # Same query, same ranks for the old memory's own match: only interference moved it.
    assert old_after["score"] < old_before["score"]
    assert _ids(after, "episodes", "external_id")[0] == "party-again"


def test_a_contested_belief_comes_back_with_its_open_contradictions(
    client: TestClient, agent: str
) -> None:
    accrual = _belief(client, agent, "Revenue is recognised when control transfers.", strength=0.8)
    cash = _belief(client, agent, "Revenue is booked when the cash arrives.", strength=0.4)
    unrelated = _belief(client, agent, "Standups should be short.")
    edge = client.post(
        f"/v1/agents/{agent}/edges",
        json={"type": "CONTRADICTS", "source_id": cash, "target_id": accrual, "strength": 0.7},
    )
    assert edge.status_code == 200, edge.text

    body = context(client, agent, "When do we recognise revenue?", k=3, section="beliefs")
    items = {i["id"]: i for i in body["sections"]["beliefs"]["items"]}

    assert _ids(body, "beliefs")[0] == accrual
    assert [c["id"] for c in items[accrual]["contradictions"]] == [cash]
    assert items[accrual]["contradictions"][0]["direction"] == "incoming"
    assert [c["id"] for c in items[cash]["contradictions"]] == [accrual]
    assert unrelated not in items or items[unrelated]["contradictions"] == []


def test_top_beliefs_are_expanded_one_hop_along_supports(client: TestClient, agent: str) -> None:
    leaf = _belief(client, agent, "Bank accounts are reconciled every month.", strength=0.9)
    principle = _belief(client, agent, "Ledger balances can be trusted.", strength=0.9)
    assert (
        client.post(
            f"/v1/agents/{agent}/edges",
            json={"type": "SUPPORTS", "source_id": leaf, "target_id": principle, "weight": 1.0},
        ).status_code
        == 200
    )

    body = context(client, agent, "bank reconciliation", k=1, section="beliefs")
    items = {i["id"]: i for i in body["sections"]["beliefs"]["items"]}

    assert items[leaf]["via"] == "search"
    assert items[principle]["via"] == "expansion"
    # Seen from the belief it was reached from: the leaf SUPPORTS (outgoing) the principle.
    assert items[principle]["expanded_from"] == [
        {"id": leaf, "type": "SUPPORTS", "direction": "outgoing"}
    ]


def test_k_counts_the_belief_hits_and_the_expansion_comes_besides_marked(
    client: TestClient, agent: str
) -> None:
    hit = _belief(client, agent, "Accrued payroll is booked at every close.", strength=0.9)
    neighbours = [
        _belief(client, agent, f"Neighbour {n} of the payroll accrual holds.", strength=0.5)
        for n in range(3)
    ]
    for neighbour in neighbours:
        edge = client.post(
            f"/v1/agents/{agent}/edges",
            json={"type": "SUPPORTS", "source_id": neighbour, "target_id": hit, "weight": 0.5},
        )
        assert edge.status_code == 200, edge.text

    body = context(client, agent, "accrued payroll at close", k=1, section="beliefs")
    items = body["sections"]["beliefs"]["items"]

    assert [i["id"] for i in items if i["via"] == "search"] == [hit]
    expanded = {i["id"]: i for i in items if i["via"] == "expansion"}
    assert set(expanded) == set(neighbours) and len(items) == 4
    assert all(
        i["expanded_from"] == [{"id": hit, "type": "SUPPORTS", "direction": "incoming"}]
        for i in expanded.values()
    )


def test_a_hub_belief_expands_to_at_most_expand_per_hit_neighbours_the_best_first(
    client: TestClient, agent: str
) -> None:
    """A hub with a dozen neighbours adds only expand_per_hit (5) of them, the heaviest edges
    first, ties by id (docs/retrieval.md §4)."""
    hub = _belief(client, agent, "Intercompany balances are eliminated on consolidation.")
    weights = [0.9, 0.6, 0.9, 0.6, 0.6, 0.6, 0.3, 0.2, 0.2, 0.1, 0.1, 0.1]
    neighbours = []
    for n, weight in enumerate(weights):
        neighbour = _belief(client, agent, f"Unrelated gardening fact number {n} holds.")
        edge = client.post(
            f"/v1/agents/{agent}/edges",
            json={"type": "SUPPORTS", "source_id": neighbour, "target_id": hub, "weight": weight},
        )
        assert edge.status_code == 200, edge.text
        neighbours.append((weight, neighbour))

    body = context(
        client, agent, "intercompany elimination on consolidation", k=1, section="beliefs"
    )
    items = body["sections"]["beliefs"]["items"]

    assert [i["id"] for i in items if i["via"] == "search"] == [hub]
    expanded = [i["id"] for i in items if i["via"] == "expansion"]
    heavy = [n for w, n in neighbours if w == 0.9]
    tied = sorted(n for w, n in neighbours if w == 0.6)[:3]  # four at 0.6: the first three ids
    assert len(expanded) == 5 and set(expanded) == set(heavy) | set(tied)
    assert set(expanded[:2]) == set(heavy)  # the best scored first


def test_unknown_query_parameters_are_refused_by_name(client: TestClient, agent: str) -> None:
    plural = client.get(
        f"/v1/agents/{agent}/context", params={"q": "x", "sections": "beliefs", "kk": 2}
    )

    assert plural.status_code == 422, plural.text
    error = plural.json()["error"]
    assert error["code"] == "invalid_input"
    assert [e["location"] for e in error["details"]["errors"]] == [
        ["query", "kk"],
        ["query", "sections"],
    ]
    assert "sections" in error["message"] and "takes q, k, section" in error["message"]


def test_the_people_section_is_the_same_whatever_else_is_asked(
    client: TestClient, agent: str
) -> None:
    import_episodes(
        client,
        agent,
        {"speaker": "Dana", "text": "Invoices are paid on the 15th.", "session": "s"},
        {"speaker": "Ravi", "text": "Supplier invoices get paid net thirty.", "session": "s"},
        end_sessions=True,
    )
    q = "When are invoices paid? Did Dana say?"

    alone = context(client, agent, q, section="people")
    with_episodes = context(client, agent, q, section=["people", "episodes"])

    people = _ids(alone, "people", "name")
    assert people == _ids(with_episodes, "people", "name")
    # Named in the query, and of the episodes found: Ravi only through an episode.
    assert set(people) == {"Dana", "Ravi"}
    assert list(alone["sections"]) == ["people"]  # the episodes read, not returned


def test_another_agents_data_never_appears(client: TestClient, agent: str) -> None:
    other = client.post("/v1/agents", json={"name": "Other"}).json()["id"]
    mine = _belief(client, agent, "Invoices over 10k need two approvals.")
    for n in range(30):
        _belief(client, other, f"Invoices over 10k need two approvals ({n}).")
    import_episodes(client, agent, {"external_id": "m", "speaker": "Bart", "text": PARTY})
    import_episodes(
        client,
        other,
        *[{"external_id": f"o{n}", "speaker": "Bart", "text": PARTY} for n in range(30)],
    )

    body = context(client, agent, "invoice approvals and the Christmas party", k=10)

    assert _ids(body, "beliefs") == [mine]
    assert _ids(body, "episodes", "external_id") == ["m"]
    assert all(
        item.get("agent_id") in (None, agent)
        for section in body["sections"].values()
        for item in section["items"]
    )


def test_without_embeddings_retrieval_is_fulltext_and_graph_and_says_so(
    settings: Settings,
) -> None:
    offline = settings.model_copy(update={"embeddings": EmbeddingSettings(enabled=False)})
    with TestClient(create_app(offline)) as client:
        agent = client.post("/v1/agents", json={"name": "Offline"}).json()["id"]
        belief = _belief(client, agent, "Reconciliations are reviewed by a second person.")
        imported = import_episodes(
            client, agent, {"external_id": "e", "speaker": "Ann", "text": "We reviewed it."}
        )
        body = context(client, agent, "who reviews reconciliations?")

    assert imported["embedded"] is False and "disabled" in imported["degraded"]
    assert body["degraded"] is True and "fulltext" in body["degraded_reason"]
    item = body["sections"]["beliefs"]["items"][0]
    assert item["id"] == belief and item["vector_rank"] is None and item["fulltext_rank"] == 1


async def test_a_failing_section_is_reported_and_the_others_still_answer(
    graph: GraphClient,
) -> None:
    from app.agents.models import AgentCreate
    from app.agents.store import create_agent

    agent = await create_agent(graph, AgentCreate(name="Isolated"))

    async def broken(_graph: GraphClient, _agent: str, _now: datetime) -> list[dict[str, Any]]:
        raise RuntimeError("working memory is on fire")

    found = await build_context(
        graph,
        shared_embedder(EmbeddingSettings()),
        RetrievalSettings(),
        agent.id,
        ContextRequest(q="anything", sections=["beliefs", "working_memory"]),
        extra_sections={"working_memory": broken},
        now=datetime(2026, 3, 2, 9, 0, tzinfo=UTC),
    )

    assert found.sections["working_memory"].error == "RuntimeError: working memory is on fire"
    assert found.sections["beliefs"].error is None


def test_items_stay_within_the_token_budget(client: TestClient, agent: str) -> None:
    for n in range(12):
        _belief(client, agent, f"Close checklist step {n}: " + "reconcile the ledger " * 8)

    body = context(client, agent, "close checklist", k=12, section="beliefs", budget_tokens=200)
    section = body["sections"]["beliefs"]

    assert section["budget_tokens"] == 200
    assert 0 < section["tokens"] <= 200
    assert section["dropped_for_budget"] > 0


def test_the_frame_sets_the_budget_and_working_memory_is_a_section(
    client: TestClient, agent: str
) -> None:
    client.post(f"/v1/agents/{agent}/working-memory/tasks", json={"description": "Close March"})

    body = context(client, agent, "should we choose vendor A or vendor B?")

    assert body["frame"]["key"] == "decision"
    assert body["budget_tokens"] == body["frame"]["budget_tokens"]
    kinds = [i["kind"] for i in body["sections"]["working_memory"]["items"]]
    assert "temporal" in kinds and "task" in kinds


def test_bad_queries_are_422_and_an_unknown_agent_is_404(
    client: TestClient, agent: str, caplog: pytest.LogCaptureFixture
) -> None:
    empty = client.get(f"/v1/agents/{agent}/context", params={"q": ""})
    huge = client.get(f"/v1/agents/{agent}/context", params={"q": "x" * 9000})
    bad_k = client.get(f"/v1/agents/{agent}/context", params={"q": "x", "k": 0})
    bad_section = client.get(f"/v1/agents/{agent}/context", params={"q": "x", "section": "nope"})
    with caplog.at_level(logging.WARNING):
        ghost = client.get("/v1/agents/ghost/context", params={"q": "anything"})

    assert [r.status_code for r in (empty, huge, bad_k, bad_section)] == [422] * 4
    assert "q" in empty.json()["error"]["details"]["errors"][0]["location"]
    assert ghost.status_code == 404
    # The unknown agent is the answer, not a logged failure of the frame's choice.
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_agents_whose_ids_share_pieces_stay_apart(graph: GraphClient) -> None:
    """The fulltext filter requires each hyphen-separated piece of the agent id (cheaper than the
    whole id as a phrase); an agent whose id has the same pieces in another order must still
    never see the other's beliefs."""
    from uuid import uuid4

    from app.agents.store import agent_params
    from app.beliefs.mechanics import Mechanics
    from app.beliefs.models import BeliefCreate
    from app.beliefs.store import create_belief

    tag = uuid4().hex[:8]
    mine, theirs = f"alpha{tag}-beta{tag}", f"beta{tag}-alpha{tag}"
    for agent_id in (mine, theirs):
        params = {**agent_params(agent_id, None, [], "api", None), "id": agent_id}
        await graph.write("agents/store/create_agent", agent=params)
    own = await create_belief(
        graph,
        Mechanics(),
        mine,
        BeliefCreate(statement="Quarterly accruals close on day three.", category="contextual"),
    )
    for n in range(20):
        await create_belief(
            graph,
            Mechanics(),
            theirs,
            BeliefCreate(
                statement=f"Quarterly accruals close on day three ({n}).", category="contextual"
            ),
        )
    found = await build_context(
        graph,
        shared_embedder(EmbeddingSettings()),
        RetrievalSettings(),
        mine,
        ContextRequest(q="quarterly accruals close", k=10, sections=["beliefs"], mode="fulltext"),
    )
    assert [item["id"] for item in found.sections["beliefs"].items] == [own.id]
