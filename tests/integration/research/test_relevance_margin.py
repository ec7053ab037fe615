"""The relevance margin in whole investigations on the real Neo4j: with the learned stance judge,
the passage that states the claim decides it, and the page's other sentences (other revisions,
other figures) no longer outvote it. VitaminC's dev slice, one side of a contrastive claim left
out of the corpus, the rest of its page kept as the distractors:

- "According to Rotten Tomatoes, the movie Collateral Beauty has an approval rating of less than
  16 % and has been reviewed by more than 12 critics" with its SUPPORTS sentence (row 111: "15 %
  based on 13 reviews"); the page's Metacritic sentences contradict it;
- "Amy Lee lost a younger sister after 1987" with its REFUTES sentence (row 212: "a younger
  sister who died in 1987"); the page's sentences about her son's birth in 2014 (cosine about
  0.42) are read as support.

Each judgement's cosine is recorded on the evidence (``similarity``) and read back."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations, store
from app.research.models import InvestigationDetail
from app.research.runner import run_investigation
from app.research.settings import ResearchSettings
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows

CASES = {
    # claim row, the rows left out (the other side), the expected verdict
    "confirmed": (111, {110}, "confirmed"),
    "refuted": (212, {213}, "refuted"),
}


def _corpus(claim_row: int, left_out: set[int]) -> ListSource:
    data = vitaminc_rows()[:400]
    page = data[claim_row]["page"]
    rows, seen = [], set()
    for number, row in enumerate(data):
        if row["page"] != page or number in left_out or row["evidence"] in seen:
            continue
        seen.add(row["evidence"])
        rows.append(number)
    return ListSource([passage_of(data[n], n) for n in rows], name="vitaminc")


async def _investigate(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
    case: str,
    research: ResearchSettings,
) -> tuple[str | None, InvestigationDetail]:
    claim_row, left_out, _ = CASES[case]
    corpus = _corpus(claim_row, left_out)
    services = services_for(graph, settings, offline, embedder, [corpus], research)
    claim = vitaminc_rows()[claim_row]["claim"]
    started = await investigations.start_investigation(services, None, agent, claim)
    end = await run_investigation(services, agent, started.id)
    return end.verdict, await store.load_detail(graph, agent, started.id)


@pytest.mark.parametrize("case", sorted(CASES))
async def test_the_closest_passage_decides_and_the_page_does_not_outvote_it(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
    case: str,
) -> None:
    assert offline.judge.model is not None, "the shipped stance judge should load here"
    research = ResearchSettings()
    margin = research.offline_relevance_margin
    assert margin is not None
    claim_row, _, expected = CASES[case]

    verdict, detail = await _investigate(graph, settings, offline, embedder, agent, case, research)

    judged = {detail.source(e.source_id).ref: e for e in detail.evidence}
    own = judged[f"vitaminc-dev:{claim_row}"]
    assert all(e.similarity is not None for e in judged.values())
    assert own.similarity == max(e.similarity or 0.0 for e in judged.values())
    # A page's sentence the judge reads the other way, confidently, but further from the claim.
    other_way = [
        e for ref, e in judged.items()
        if e is not own and e.stance not in ("neutral", own.stance)
        and e.confidence >= research.offline_support_floor
    ]  # fmt: skip
    assert other_way
    assert all((e.similarity or 0.0) < (own.similarity or 0.0) - margin for e in other_way)
    assert verdict == expected


@pytest.mark.parametrize("case", sorted(CASES))
async def test_with_every_passage_counting_the_page_outvotes_the_claims_sentence(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
    case: str,
) -> None:
    before = ResearchSettings(offline_relevance_margin=None)

    verdict, detail = await _investigate(graph, settings, offline, embedder, agent, case, before)

    assert verdict != CASES[case][2]
    assert detail.conflicts, "the page's other sentences raised a conflict"
