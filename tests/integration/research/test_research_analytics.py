"""The two research analytics (cypher/beliefs/analytics/) on a real investigation: the evidence
tree of its hypothesis and the conflict it resolved."""

from __future__ import annotations

from datetime import date

from app.beliefs.analytics.runner import run_analytics
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research import investigations, store
from app.research.runner import run_investigation
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows

MOROCCO = 4


async def test_evidence_tree_and_resolved_conflicts(
    graph: GraphClient,
    settings: Settings,
    offline: OfflineReasoner,
    embedder: Embedder,
    agent: str,
) -> None:
    data = vitaminc_rows()
    dates = {MOROCCO: date(2020, 3, 15), MOROCCO + 1: date(2020, 3, 20)}
    source = ListSource(
        [passage_of(data[n], n).model_copy(update={"published": dates[n]}) for n in dates]
    )
    services = services_for(graph, settings, offline, embedder, [source])
    started = await investigations.start_investigation(
        services, None, agent, data[MOROCCO]["claim"]
    )
    await run_investigation(services, agent, started.id)
    detail = await store.load_detail(graph, agent, started.id)

    tree = await run_analytics(graph, agent, "hypothesis_evidence_tree")
    assert [row["stance"] for row in tree.rows] == ["supports", "contradicts"]
    assert [row["counts"] for row in tree.rows] == [True, False]
    assert tree.rows[0]["hypothesis_status"] == "confirmed"
    assert tree.rows[0]["beliefs"][0]["effect"] == "created"
    assert tree.rows[1]["conflicts"][0]["won"] is False
    same = await run_analytics(
        graph, agent, "hypothesis_evidence_tree",
        {"hypothesis_id": detail.hypotheses[0].id},
    )  # fmt: skip
    assert same.rows == tree.rows

    [conflict] = (
        await run_analytics(
            graph, agent, "resolved_research_conflicts", {"investigation_id": started.id}
        )
    ).rows
    assert conflict["status"] == "resolved" and conflict["basis"] == "date"
    assert conflict["trusted_source"] == conflict["supporting_source"]
    assert conflict["decisive_evidence"].startswith("supports")
    resolve_ordinal = next(s.ordinal for s in detail.steps if s.kind == "resolve")
    assert conflict["resolved_by_step"] == resolve_ordinal
