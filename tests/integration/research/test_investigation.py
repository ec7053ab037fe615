"""An investigation end to end on the real Neo4j with the offline reasoner, over passages of
VitaminC's dev slice: the same claim with a supporting and a refuting Wikipedia sentence is a
real source conflict."""

from __future__ import annotations

from datetime import date

from app.beliefs.models import BeliefCreate
from app.beliefs.store import create_belief, get_belief
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations, store
from app.research.runner import run_investigation
from app.research.settings import ResearchSettings
from app.research.sources.graph_source import GraphSource
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows

# Rows 4 and 5 of the dev slice: one claim, a refuting and a supporting sentence.
MOROCCO = 4


def _corpus(
    rows: list[int], dates: dict[int, date] | None = None, distractors: int = 40
) -> ListSource:
    data = vitaminc_rows()
    chosen = [*rows, *(n for n in range(20, 20 + distractors) if n not in rows)]
    passages = [passage_of(data[n], n) for n in chosen]
    if dates:
        passages = [
            p.model_copy(update={"published": dates.get(int(p.ref.rsplit(":", 1)[1]))})
            for p in passages
        ]
    return ListSource(passages, name="vitaminc")


async def test_conflicting_sentences_are_found_recorded_and_left_undecided(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    services = services_for(graph, settings, offline, embedder, [_corpus([MOROCCO, MOROCCO + 1])])
    started = await investigations.start_investigation(services, None, agent, claim)

    end = await run_investigation(services, agent, started.id)

    assert end.status == "finished"
    detail = await store.load_detail(graph, agent, started.id)
    refs = {s.ref for s in detail.sources}
    assert {f"vitaminc-dev:{MOROCCO}", f"vitaminc-dev:{MOROCCO + 1}"} <= refs
    [conflict] = detail.conflicts
    conflicting = {
        detail.source(conflict.first_source_id).ref,
        detail.source(conflict.second_source_id).ref,
    }
    assert conflicting == {f"vitaminc-dev:{MOROCCO}", f"vitaminc-dev:{MOROCCO + 1}"}
    assert detail.source(conflict.first_source_id).ref == f"vitaminc-dev:{MOROCCO + 1}"  # supports
    assert conflict.status == "unresolvable"
    assert conflict.resolution and "no publication dates" in conflict.resolution
    assert end.verdict == "undecided"
    assert detail.hypotheses[0].status == "undecided"
    kinds = [step.kind for step in detail.steps]
    assert kinds[0] == "supervisor" and kinds[-1] == "synthesize" and "resolve" in kinds
    assert [step.ordinal for step in detail.steps] == list(range(len(kinds)))
    assert end.report and "[1]" in end.report and "cannot resolve" in end.report
    # Undecided: no belief was created or touched.
    assert not [c for s in detail.steps for c in s.details.get("beliefs", [])]


async def test_a_dated_conflict_is_resolved_for_the_newer_source_and_becomes_a_belief(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    dates = {MOROCCO: date(2020, 3, 15), MOROCCO + 1: date(2020, 3, 20)}
    services = services_for(
        graph, settings, offline, embedder, [_corpus([MOROCCO, MOROCCO + 1], dates)]
    )
    started = await investigations.start_investigation(services, None, agent, claim)

    end = await run_investigation(services, agent, started.id)

    detail = await store.load_detail(graph, agent, started.id)
    [conflict] = detail.conflicts
    assert conflict.status == "resolved" and conflict.basis == "date"
    assert detail.source(conflict.winner_source_id or "").ref == f"vitaminc-dev:{MOROCCO + 1}"
    assert conflict.decisive_evidence_id is not None
    assert end.verdict == "confirmed"
    [synthesis] = [s for s in detail.steps if s.kind == "synthesize"]
    [change] = synthesis.details["beliefs"]
    assert change["effect"] == "created"
    belief = await get_belief(graph, settings.mechanics, agent, change["belief_id"])
    assert belief.belief.source == "learned"
    assert belief.belief.strength > settings.loop.learned_strength  # reinforced by its evidence


async def test_a_refuted_claim_adds_tension_to_the_belief_that_holds_it(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    held = await create_belief(
        graph,
        settings.mechanics,
        agent,
        BeliefCreate(statement=claim, category="contextual", strength=0.7),
    )
    services = services_for(graph, settings, offline, embedder, [_corpus([MOROCCO])])
    started = await investigations.start_investigation(services, None, agent, claim)

    end = await run_investigation(services, agent, started.id)

    assert end.verdict == "refuted"
    after = await get_belief(graph, settings.mechanics, agent, held.id)
    assert after.belief.tension > 0.0


async def test_the_iteration_cap_is_honoured(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    services = services_for(
        graph, settings, offline, embedder, [_corpus([MOROCCO, MOROCCO + 1])],
        ResearchSettings(),
    )  # fmt: skip
    started = await investigations.start_investigation(
        services, None, agent, claim, iteration_cap=2
    )

    end = await run_investigation(services, agent, started.id)

    detail = await store.load_detail(graph, agent, started.id)
    assert [s.kind for s in detail.steps] == ["supervisor", "search", "synthesize"]
    assert end.status == "finished" and end.verdict == "undecided"
    assert "iteration cap 2 reached" in detail.steps[-1].details["why"]


async def test_a_belief_research_created_is_not_evidence_for_the_next_investigation(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    claim = vitaminc_rows()[MOROCCO]["claim"]
    dates = {MOROCCO: date(2020, 3, 15), MOROCCO + 1: date(2020, 3, 20)}
    corpus = _corpus([MOROCCO, MOROCCO + 1], dates)
    first = services_for(graph, settings, offline, embedder, [corpus])
    started = await investigations.start_investigation(first, None, agent, claim)
    assert (await run_investigation(first, agent, started.id)).verdict == "confirmed"

    own_graph = services_for(
        graph, settings, offline, embedder, [GraphSource(graph, embedder, settings.retrieval)]
    )
    again = await investigations.start_investigation(own_graph, None, agent, claim)
    end = await run_investigation(own_graph, agent, again.id)

    detail = await store.load_detail(graph, agent, again.id)
    searches = [s for s in detail.steps if s.kind == "search"]
    assert sum(s.details["skipped_research_beliefs"] for s in searches) >= 1
    assert not [s for s in detail.sources if s.kind == "belief"]
    assert end.verdict == "undecided"
