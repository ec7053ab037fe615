"""The offline reasoner's evidence floors in a whole investigation on the real Neo4j: a passage
the stance judge reads as support with a confidence under ``offline_support_floor`` neither
counts nor decides (VitaminC's dev slice, row 127: "Jake Gyllenhaal was meant to play the role
of Swofford in Jarhead ... but he pulled out at the last minute", labelled REFUTES for "Actor
Jake Gyllenhaal starred in Jarhead", which the shipped judge calls support at about 0.72)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import ResearchStance
from app.research import investigations, store
from app.research.models import Verdict
from app.research.runner import run_investigation
from app.research.settings import ResearchSettings
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows
from tests.support.runtime import runtime_of

JARHEAD = 127


def _corpus() -> ListSource:
    data = vitaminc_rows()
    rows = [JARHEAD, *range(20, 60)]
    return ListSource([passage_of(data[n], n) for n in rows], name="vitaminc")


async def _investigate(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
    research: ResearchSettings,
) -> tuple[Verdict | None, list[tuple[str, ResearchStance, float]]]:
    services = services_for(graph, settings, offline, embedder, [_corpus()], research)
    claim = vitaminc_rows()[JARHEAD]["claim"]
    started = await investigations.start_investigation(services, None, agent, claim)
    end = await run_investigation(services, agent, started.id)
    detail = await store.load_detail(graph, agent, started.id)
    judged: list[tuple[str, ResearchStance, float]] = [
        (detail.source(e.source_id).ref, e.stance, e.confidence)
        for e in detail.evidence
        if e.stance != "neutral"
    ]
    return end.verdict, judged


async def test_a_support_under_the_offline_floor_leaves_the_claim_undecided(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    assert offline.judge.model is not None, "the shipped stance judge should load here"
    research = ResearchSettings()
    assert research.offline_support_floor == 0.8

    verdict, judged = await _investigate(graph, settings, offline, embedder, agent, research)

    [(_, stance, confidence)] = [j for j in judged if j[0] == f"vitaminc-dev:{JARHEAD}"]
    assert stance == "supports" and 0.7 <= confidence < research.offline_support_floor
    assert verdict == "undecided"


async def test_with_the_old_fixed_floor_the_same_passage_confirms_the_claim(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    before = ResearchSettings(offline_support_floor=0.7, offline_contradiction_floor=0.7)

    verdict, judged = await _investigate(graph, settings, offline, embedder, agent, before)

    assert (f"vitaminc-dev:{JARHEAD}", "supports") in {(ref, s) for ref, s, _ in judged}
    assert verdict == "confirmed"


def test_the_api_runs_research_with_the_floors_of_the_judge_it_has(settings: Settings) -> None:
    """With the learned judge, the configured offline floors and relevance margin; with the cue
    judge alone (the model switched off), its stances keep ``evidence_floor`` and every passage
    counts; /health names the judge."""
    off = settings.model_copy(
        update={"reasoner": settings.reasoner.model_copy(update={"offline_stance_model": False})}
    )
    learned = (0.8, 0.7, 0.02)
    for app_settings, kind, floors in (
        (settings, "learned", learned),
        (off, "cues", (0.7, 0.7, None)),
    ):
        with TestClient(create_app(app_settings)) as client:
            assert client.get("/health").json()["stance_judge"]["kind"] == kind
            research = runtime_of(client).research.research
            assert (
                research.offline_support_floor,
                research.offline_contradiction_floor,
                research.offline_relevance_margin,
            ) == floors
