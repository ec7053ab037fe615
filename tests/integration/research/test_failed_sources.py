"""A source that fails during an investigation: a search that no source answered does not use up
one of the hypothesis' searches (the same query is tried again, a bounded number of times), and
the verdict's wording (the synthesize step's summary, the report) says which sources failed."""

from __future__ import annotations

from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations, store
from app.research.runner import run_investigation
from app.research.sources.protocol import Passage
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows

# Row 4 of VitaminC's dev slice: a claim and the sentence that refutes it.
MOROCCO = 4


class FailingSource(ListSource):
    """Fails its first ``failures`` searches (every one when None), then answers as a list."""

    def __init__(self, passages: list[Passage], name: str, failures: int | None = None):
        super().__init__(passages, name=name)
        self.failures = failures
        self.calls = 0

    async def search(self, agent_id: str, query: str, *, limit: int) -> list[Passage]:
        self.calls += 1
        if self.failures is None or self.calls <= self.failures:
            raise RuntimeError("index offline")
        return await super().search(agent_id, query, limit=limit)


def _refuting_corpus() -> list[Passage]:
    rows = vitaminc_rows()
    return [passage_of(rows[n], n) for n in [MOROCCO, *range(20, 60)]]


async def test_a_search_no_source_answered_is_tried_again_without_using_up_a_search(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    # The only source fails once: that search found nothing for a reason outside the question,
    # and the hypothesis used to be left with one search of its two.
    flaky = FailingSource(_refuting_corpus(), name="vitaminc", failures=1)
    services = services_for(graph, settings, offline, embedder, [flaky])
    claim = vitaminc_rows()[MOROCCO]["claim"]
    started = await investigations.start_investigation(services, None, agent, claim)

    await run_investigation(services, agent, started.id)

    detail = await store.load_detail(graph, agent, started.id)
    searches = [step for step in detail.steps if step.kind == "search"]
    [hypothesis] = detail.hypotheses
    # Two searches, the failed one not counted (the retry found the refuting sentence).
    assert len(searches) == 2 and hypothesis.searches == 1
    assert hypothesis.status == "refuted" and hypothesis.failed_searches == 1
    # The failed query is asked again.
    assert searches[0].details["query"] == searches[1].details["query"]
    assert [step.details["counted"] for step in searches] == [False, True]
    assert "not counted: no source answered" in searches[0].summary
    assert hypothesis.failed_sources == []  # it answered since


async def test_a_source_that_always_fails_is_tried_a_bounded_number_of_times(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    broken = FailingSource([], name="broken")
    services = services_for(graph, settings, offline, embedder, [broken])
    started = await investigations.start_investigation(
        services, None, agent, "Is the harbour road flooded?"
    )

    end = await run_investigation(services, agent, started.id)

    detail = await store.load_detail(graph, agent, started.id)
    assert [step.kind for step in detail.steps] == ["supervisor", "search", "search", "synthesize"]
    assert end.verdict == "undecided"
    assert "verdict undecided (1 of 1 source(s) failed: broken)" in detail.steps[-1].summary
    [hypothesis] = detail.hypotheses
    assert (hypothesis.searches, hypothesis.failed_searches) == (0, 2)
    assert hypothesis.failed_sources == ["broken"]
    assert end.report is not None and "No source was found (sources failed)." in end.report
    assert "no source that answered bears on it" in end.report


async def test_a_verdict_reached_while_a_source_failed_says_so(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    corpus = ListSource(_refuting_corpus(), name="vitaminc")
    services = services_for(
        graph, settings, offline, embedder, [corpus, FailingSource([], name="broken")]
    )
    claim = vitaminc_rows()[MOROCCO]["claim"]
    started = await investigations.start_investigation(services, None, agent, claim)

    end = await run_investigation(services, agent, started.id)

    detail = await store.load_detail(graph, agent, started.id)
    assert end.verdict == "refuted"
    [synthesis] = [step for step in detail.steps if step.kind == "synthesize"]
    assert synthesis.summary.startswith("verdict refuted (1 of 2 source(s) failed: broken);")
    [hypothesis] = detail.hypotheses
    # The corpus answered: the search counted although "broken" failed in it.
    assert (hypothesis.searches, hypothesis.failed_searches) == (1, 0)
    assert hypothesis.failed_sources == ["broken"]
    assert synthesis.details["failed_sources"] == ["broken"]
    assert end.report is not None
    assert "1 of 2 source(s) failed: broken: the verdict rests on those that answered" in end.report
    assert "refuted (confidence" in end.report and "; broken failed)" in end.report
