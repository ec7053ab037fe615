"""Reflection and consolidation against the real Neo4j, with real embeddings."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.api.app import create_app
from app.cli.main import app as cli_app
from app.config import Settings
from app.embeddings.embedder import Embedder, UnavailableEmbedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.memory import rules, self_model
from app.memory.episodes import EpisodeBatch, get_episode, import_episodes
from app.memory.reflection.clustering import cluster_by_similarity
from app.memory.reflection.models import ReflectionFailed, ReflectionReport, ReflectRequest
from app.memory.reflection.procedure import reflect as reflect_with
from app.memory.self_model import CapabilityState, capability_after
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.protocol import AbstractedRule, RuleRequest
from app.retrieval.settings import RetrievalSettings
from tests.support.runtime import runtime_of

# These scenarios were written around pairs of similar episodes; the default cluster is 3 (seed
# 003), so the file's reflections ask for pairs unless a test passes its own settings.
PAIRS = ReflectionSettings(min_cluster_size=2)


async def reflect(*args: Any, **kwargs: Any) -> ReflectionReport:
    kwargs.setdefault("settings", PAIRS)
    return await reflect_with(*args, **kwargs)


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)

BANK = [
    "Reconciled the March bank statement against the ledger and found a duplicated vendor payment.",
    "Reconciling the April bank statement with the general ledger turned up a duplicate vendor "
    "payment.",
    "Bank reconciliation for May: the ledger and the bank statement differed by a duplicated "
    "supplier payment.",
]
REPORT = [
    "The quarterly report draft was sent to the CFO without the variance commentary.",
    "Drafted the quarterly report for the CFO but forgot the variance analysis section.",
]
LONE = [
    "Scheduled a follow-up meeting with the auditors for next Tuesday.",
    "Lunch order for the team: pizza.",
]
BACKUP = [
    "The nightly database backup job failed because the disk was full.",
    "Database backup failed overnight: the backup disk ran out of space.",
]


def shared_embedder_for_tests() -> Embedder:
    return shared_embedder(EmbeddingSettings())


class FakeReasoner(OfflineReasoner):
    """Deterministic rule abstraction: the concept from keywords of the cluster's texts (every
    other request is the offline reasoner's, so a runtime can serve with it)."""

    name = "fake"

    def __init__(self, *, delay: float = 0.0, fail_on_call: int | None = None) -> None:
        super().__init__()
        self.requests: list[RuleRequest] = []
        self.delay = delay
        self.fail_on_call = fail_on_call

    async def abstract_rule(self, request: RuleRequest) -> AbstractedRule:
        self.requests.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.fail_on_call is not None and len(self.requests) == self.fail_on_call:
            raise TimeoutError("the model did not answer in time")
        text = " ".join(e.text.lower() for e in request.episodes)
        concept = next(
            (
                name
                for key, name in (
                    ("bank", "bank reconciliation"),
                    ("quarterly", "quarterly report"),
                    ("backup", "database backups"),
                )
                if key in text
            ),
            "misc",
        )
        return AbstractedRule(
            trigger_concept=concept,
            content=f"When doing {concept}, check what went wrong in {len(request.episodes)} "
            "similar episodes first.",
            confidence=0.65,
            reasoner="fake",
        )


def _item(
    text: str,
    index: int,
    *,
    outcome: str | None = None,
    frame: str | None = None,
    actions: int = 3,
    key: str = "e",
) -> dict[str, Any]:
    return {
        "external_id": f"{key}-{index}",
        "speaker": "assistant",
        "text": text,
        "occurred_at": T0 + timedelta(hours=index),
        "outcome": outcome,
        "frame": frame,
        "actions": actions,
    }


async def _import(
    graph: GraphClient,
    agent: str,
    items: list[dict[str, Any]],
    embedder: Embedder | None = None,
) -> dict[str, str]:
    """Imports episodes; returns external id → episode id."""
    report = await import_episodes(
        graph,
        embedder or shared_embedder_for_tests(),
        RetrievalSettings(),
        agent,
        EpisodeBatch.model_validate({"episodes": items}),
    )
    return {e.external_id: e.id for e in report.episodes if e.external_id}


def _standard_items() -> list[dict[str, Any]]:
    bank_outcomes = ["success", "failure", "success"]
    return [
        *(
            _item(t, i, outcome=o, frame="task", key="bank")
            for i, (t, o) in enumerate(zip(BANK, bank_outcomes, strict=True))
        ),
        *(_item(t, 10 + i, outcome="failure", key="report") for i, t in enumerate(REPORT)),
        *(
            _item(t, 20 + i, outcome="success", frame="task", key="lone")
            for i, t in enumerate(LONE)
        ),
        # Similar to the bank ones, but trivial (fewer than 2 actions): never consolidated.
        _item(BANK[0] + " Again.", 30, outcome="success", actions=1, key="trivial"),
        _item(BANK[1] + " Once more.", 31, outcome="success", actions=0, key="trivial"),
    ]


async def _consolidated(graph: GraphClient, agent: str, episode_id: str) -> bool:
    return bool((await get_episode(graph, agent, episode_id))["consolidated"])


# --- clustering (pure) ---------------------------------------------------------------------------


def test_clustering_is_average_linkage_and_ignores_input_order() -> None:
    vectors = [[1.0, 0.0, 0.0], [0.95, 0.3, 0.0], [0.0, 1.0, 0.0], [0.0, 0.9, 0.4], [0, 0, 1.0]]
    assert cluster_by_similarity(vectors, 0.9) == [[0, 1], [2, 3], [4]]
    assert cluster_by_similarity(vectors, 0.99) == [[0], [1], [2], [3], [4]]
    # Average, not single, linkage: at 0.2 {2, 3} takes 4 (mean cosine 0.203) but not {0, 1}
    # (mean 0.144), although 1 and 2 alone are at 0.30.
    assert cluster_by_similarity(vectors, 0.2) == [[0, 1], [2, 3, 4]]
    assert cluster_by_similarity(vectors, 0.05) == [[0, 1, 2, 3, 4]]
    assert cluster_by_similarity([], 0.5) == []

    order = list(range(len(vectors)))
    random.Random(7).shuffle(order)
    shuffled = cluster_by_similarity([vectors[i] for i in order], 0.9)
    as_sets = {frozenset(order[i] for i in group) for group in shuffled}
    assert as_sets == {frozenset({0, 1}), frozenset({2, 3}), frozenset({4})}


def test_request_fields_are_validated() -> None:
    with pytest.raises(ValueError, match="similarity"):
        ReflectRequest.model_validate({"similarity": 1.5})
    with pytest.raises(ValueError, match="min_cluster_size"):
        ReflectRequest.model_validate({"min_cluster_size": 1})
    with pytest.raises(ValueError, match="bogus"):
        ReflectRequest.model_validate({"bogus": True})
    naive = ReflectRequest.model_validate({"since": "2026-03-01T00:00:00"})
    assert naive.since == datetime(2026, 3, 1, tzinfo=UTC)


# --- reflection against Neo4j --------------------------------------------------------------------


async def test_reflection_consolidates_clusters_into_rules(graph: GraphClient, agent: str) -> None:
    ids = await _import(graph, agent, _standard_items())
    reasoner = FakeReasoner()

    report = await reflect(graph, shared_embedder_for_tests(), reasoner, agent, now=NOW)

    bank_ids = [ids[f"bank-{i}"] for i in range(3)]
    report_ids = [ids["report-10"], ids["report-11"]]
    assert [c.episode_ids for c in report.clusters] == [bank_ids, report_ids]
    bank, quarterly = report.clusters
    assert bank.trigger_concept == "bank reconciliation" and bank.reasoner == "fake"
    assert bank.outcomes == {"success": 2, "failure": 1, "partial": 0, "neutral": 0, "unknown": 0}
    # The capability a turn in the episodes' frame exercises (seeds/self.yaml capability_map).
    assert bank.domain == "task_execution"
    assert quarterly.domain == "quarterly report"  # no frame: the rule's trigger concept
    assert bank.cohesion > 0.6 and quarterly.cohesion > 0.6
    assert report.considered == 7
    assert report.skipped.model_dump() == {
        "trivial": 2,
        "without_embedding": 0,
        "beyond_limit": 0,
        "unclustered": 2,
        "raced": 0,
        "consolidated": 0,
    }
    assert report.rules_embedded and not report.dry_run

    # The reasoner saw each cluster's episodes with their outcome and frame.
    assert [[e.id for e in r.episodes] for r in reasoner.requests] == [bank_ids, report_ids]
    assert reasoner.requests[0].episodes[1].outcome == "failure"
    assert reasoner.requests[0].episodes[0].frame == "task"

    stored = {r.id: r for r in (await rules.list_rules(graph, agent)).data}
    assert bank.rule_id is not None and quarterly.rule_id is not None
    assert set(stored) == {bank.rule_id, quarterly.rule_id}
    bank_rule = stored[bank.rule_id]
    assert bank_rule.source == "reflection" and bank_rule.confidence == 0.65
    assert bank_rule.content == bank.content and bank_rule.has_embedding
    assert sorted(bank_rule.derived_from) == sorted(bank_ids)
    assert sorted(stored[quarterly.rule_id].derived_from) == sorted(report_ids)
    assert bank_rule.created_at == NOW

    for episode_id in bank_ids + report_ids:
        episode = await get_episode(graph, agent, episode_id)
        assert episode["consolidated"] is True and episode["consolidated_at"] == NOW
    for key in ("lone-20", "lone-21", "trivial-30", "trivial-31"):
        episode = await get_episode(graph, agent, ids[key])
        assert episode["consolidated"] is False and "consolidated_at" not in episode

    # Capabilities: the self-model's formula applied to each outcome, oldest first.
    mechanics = MemoryMechanics()
    expected = CapabilityState(
        proficiency=mechanics.capability_initial_proficiency,
        success_rate=mechanics.capability_initial_success_rate,
        experience_count=0,
    )
    for success in (True, False, True):
        expected = capability_after(expected, success, 0.5, mechanics)
    changes = {c.domain: c for c in report.capabilities}
    assert changes["task_execution"].successes == 2 and changes["task_execution"].failures == 1
    assert changes["task_execution"].after == expected
    assert changes["quarterly report"].failures == 2
    me = await self_model.get_self(graph, agent)
    capabilities = {c.domain: c for c in me.capabilities}
    assert capabilities["task_execution"].proficiency == pytest.approx(expected.proficiency)
    assert capabilities["task_execution"].success_rate == pytest.approx(expected.success_rate)
    assert capabilities["task_execution"].experience_count == 3
    assert capabilities["quarterly report"].success_rate < mechanics.capability_initial_success_rate

    # Mostly failures → a knowledge gap naming the concept; the mixed cluster adds none.
    gap = "quarterly report (similar episodes mostly failed)"
    assert report.knowledge_gaps_added == [gap]
    assert quarterly.knowledge_gap == gap and bank.knowledge_gap is None
    assert gap in me.knowledge_gaps


async def test_a_second_reflection_finds_nothing_new(graph: GraphClient, agent: str) -> None:
    await _import(graph, agent, _standard_items())
    await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, now=NOW)
    before = await self_model.get_self(graph, agent)

    again = FakeReasoner()
    second = await reflect(graph, shared_embedder_for_tests(), again, agent, now=NOW)

    assert second.clusters == [] and again.requests == []
    assert second.considered == 2 and second.skipped.unclustered == 2
    assert (await rules.list_rules(graph, agent)).count == 2
    assert await self_model.get_self(graph, agent) == before

    # New similar episodes form a new cluster; the reasoner is told the rules the agent has.
    ids = await _import(
        graph,
        agent,
        [_item(t, 40 + i, outcome="failure", key="backup") for i, t in enumerate(BACKUP)],
    )
    third_reasoner = FakeReasoner()
    third = await reflect(graph, shared_embedder_for_tests(), third_reasoner, agent, now=NOW)
    assert [c.episode_ids for c in third.clusters] == [[ids["backup-40"], ids["backup-41"]]]
    assert len(third_reasoner.requests[0].existing_rules) == 2
    assert any("bank reconciliation" in r for r in third_reasoner.requests[0].existing_rules)
    assert (await rules.list_rules(graph, agent)).count == 3


async def test_a_cluster_of_more_than_a_hundred_episodes_becomes_one_rule(
    graph: GraphClient, agent: str
) -> None:
    # A rule created through the API names at most 100 episodes; a cluster is not held to that.
    # It was, and the reflection failed every time (nothing written, the episodes still open), so
    # the loop's background reflection ran again, and failed again, after every turn.
    items = [
        _item(f"{BANK[i % len(BANK)]} Reconciliation run {i}.", i, outcome="success", key="bank")
        for i in range(104)
    ]
    ids = await _import(graph, agent, items)
    assert await _since_reflection(graph, agent) == 104

    report = await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, now=NOW)

    assert len(report.clusters) == 1 and report.clusters[0].size == 104
    assert report.clusters[0].rule_id is not None
    stored = (await rules.list_rules(graph, agent)).data
    assert [r.id for r in stored] == [report.clusters[0].rule_id]
    assert sorted(stored[0].derived_from) == sorted(ids.values())
    assert all([await _consolidated(graph, agent, episode_id) for episode_id in ids.values()])
    assert await _since_reflection(graph, agent) == 0

    again = FakeReasoner()
    second = await reflect(graph, shared_embedder_for_tests(), again, agent, now=NOW)
    assert second.clusters == [] and again.requests == [] and second.considered == 0


async def _since_reflection(graph: GraphClient, agent: str) -> int:
    rows = await graph.read("loop/sessions/count_open_episodes", agent_id=agent)
    return int(rows[0]["open"])


async def test_any_reflection_restarts_the_count_of_episodes_since_the_last(
    graph: GraphClient, agent: str
) -> None:
    # The loop reflects every N episodes by this count; a reflection a user asked for, or one
    # that found no cluster, counts as well (a dry run does not).
    await _import(graph, agent, _standard_items())
    waiting = await _since_reflection(graph, agent)
    assert waiting == len(_standard_items())
    dry = ReflectRequest(dry_run=True)
    await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, dry, now=NOW)
    assert await _since_reflection(graph, agent) == waiting
    await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, now=NOW)
    assert await _since_reflection(graph, agent) == 0

    await _import(graph, agent, [_item(BACKUP[0], 50, outcome="failure", key="lone")])
    assert await _since_reflection(graph, agent) == 1
    nothing = await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, now=NOW)
    assert nothing.clusters == []
    assert await _since_reflection(graph, agent) == 0


async def test_a_dry_run_previews_and_writes_nothing(graph: GraphClient, agent: str) -> None:
    ids = await _import(graph, agent, _standard_items())
    before = await self_model.get_self(graph, agent)

    preview = await reflect(
        graph,
        shared_embedder_for_tests(),
        FakeReasoner(),
        agent,
        ReflectRequest(dry_run=True),
        now=NOW,
    )

    assert preview.dry_run and len(preview.clusters) == 2
    assert all(c.rule_id is None for c in preview.clusters)
    assert preview.clusters[0].trigger_concept == "bank reconciliation"
    assert {c.domain for c in preview.capabilities} == {"task_execution", "quarterly report"}
    assert preview.knowledge_gaps_added == ["quarterly report (similar episodes mostly failed)"]
    assert (await rules.list_rules(graph, agent)).count == 0
    assert not any([await _consolidated(graph, agent, i) for i in ids.values()])
    assert await self_model.get_self(graph, agent) == before

    # The real run afterwards writes what the preview showed.
    done = await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, now=NOW)
    assert [c.episode_ids for c in done.clusters] == [c.episode_ids for c in preview.clusters]
    assert done.capabilities == preview.capabilities


async def test_a_failing_reasoner_writes_nothing(graph: GraphClient, agent: str) -> None:
    ids = await _import(graph, agent, _standard_items())
    before = await self_model.get_self(graph, agent)
    reasoner = FakeReasoner(fail_on_call=2)

    with pytest.raises(ReflectionFailed) as raised:
        await reflect(graph, shared_embedder_for_tests(), reasoner, agent, now=NOW)

    assert "TimeoutError" in raised.value.message and "nothing was written" in raised.value.message
    assert raised.value.details["episode_ids"] in (
        [ids["report-10"], ids["report-11"]],
        [ids[f"bank-{i}"] for i in range(3)],
    )
    assert len(reasoner.requests) == 2
    assert (await rules.list_rules(graph, agent)).count == 0
    assert not any([await _consolidated(graph, agent, i) for i in ids.values()])
    assert await self_model.get_self(graph, agent) == before


async def test_an_unusable_rule_from_the_reasoner_writes_nothing(
    graph: GraphClient, agent: str
) -> None:
    class BlankReasoner(FakeReasoner):
        async def abstract_rule(self, request: RuleRequest) -> AbstractedRule:
            return AbstractedRule(trigger_concept="   ", content="x", confidence=0.5)

    await _import(graph, agent, _standard_items())
    with pytest.raises(ReflectionFailed, match=r"unusable .*trigger_concept"):
        await reflect(graph, shared_embedder_for_tests(), BlankReasoner(), agent, now=NOW)
    assert (await rules.list_rules(graph, agent)).count == 0


async def test_another_agents_episodes_are_untouched(
    graph: GraphClient, agent: str, other_agent: str
) -> None:
    await _import(graph, agent, _standard_items()[:3])
    theirs = await _import(graph, other_agent, _standard_items())

    report = await reflect(graph, shared_embedder_for_tests(), FakeReasoner(), agent, now=NOW)

    assert len(report.clusters) == 1 and report.considered == 3
    assert not set(report.clusters[0].episode_ids) & set(theirs.values())
    assert not any([await _consolidated(graph, other_agent, i) for i in theirs.values()])
    assert (await rules.list_rules(graph, other_agent)).count == 0
    assert (await self_model.get_self(graph, other_agent)).capabilities == []


async def test_since_max_episodes_and_similarity_limit_the_reflection(
    graph: GraphClient, agent: str
) -> None:
    ids = await _import(graph, agent, _standard_items())

    # Only the report episodes (hours 10, 11) and later: the bank ones are out of the window.
    recent = await reflect(
        graph,
        shared_embedder_for_tests(),
        FakeReasoner(),
        agent,
        ReflectRequest(since=T0 + timedelta(hours=10), dry_run=True),
    )
    assert [c.trigger_concept for c in recent.clusters] == ["quarterly report"]
    assert recent.considered == 4 and recent.skipped.trivial == 2

    # The 4 most recent eligible: the 2 report and 2 lone episodes; the bank ones wait.
    limited = await reflect(
        graph,
        shared_embedder_for_tests(),
        FakeReasoner(),
        agent,
        ReflectRequest(max_episodes=4, dry_run=True),
    )
    assert limited.considered == 4 and limited.skipped.beyond_limit == 3
    assert [c.episode_ids for c in limited.clusters] == [[ids["report-10"], ids["report-11"]]]

    strict = await reflect(
        graph,
        shared_embedder_for_tests(),
        FakeReasoner(),
        agent,
        ReflectRequest(similarity=0.8, min_cluster_size=3, dry_run=True),
    )
    assert strict.clusters == [] and strict.skipped.unclustered == 7

    loose = await reflect(
        graph,
        shared_embedder_for_tests(),
        FakeReasoner(),
        agent,
        ReflectRequest(min_cluster_size=3, dry_run=True),
    )
    assert [c.trigger_concept for c in loose.clusters] == ["bank reconciliation"]
    assert loose.min_cluster_size == 3 and loose.similarity == ReflectionSettings().similarity


async def test_episodes_without_embeddings_are_skipped_and_counted(
    graph: GraphClient, agent: str
) -> None:
    await _import(
        graph,
        agent,
        [_item(t, i, outcome="success") for i, t in enumerate(BANK)],
        embedder=UnavailableEmbedder(),
    )
    reasoner = FakeReasoner()

    report = await reflect(graph, UnavailableEmbedder(), reasoner, agent, now=NOW)

    assert report.clusters == [] and report.considered == 0 and reasoner.requests == []
    assert report.skipped.without_embedding == 3


async def test_rules_are_stored_without_vectors_when_embeddings_are_unavailable(
    graph: GraphClient, agent: str
) -> None:
    await _import(graph, agent, _standard_items()[:3])

    report = await reflect(graph, UnavailableEmbedder(), FakeReasoner(), agent, now=NOW)

    assert len(report.clusters) == 1 and not report.rules_embedded
    stored = await rules.get_rule(graph, agent, report.clusters[0].rule_id or "")
    assert not stored.has_embedding


async def test_concurrent_reflections_never_duplicate_rules(graph: GraphClient, agent: str) -> None:
    await _import(graph, agent, _standard_items())
    # Both read the same open episodes and wait on the reasoner before either writes.
    first, second = await asyncio.gather(
        reflect(graph, shared_embedder_for_tests(), FakeReasoner(delay=0.3), agent, now=NOW),
        reflect(graph, shared_embedder_for_tests(), FakeReasoner(delay=0.3), agent, now=NOW),
    )

    written = [c for r in (first, second) for c in r.clusters]
    assert len(written) == 2
    assert sorted([first.skipped.raced, second.skipped.raced]) == [0, 5]
    assert (await rules.list_rules(graph, agent)).count == 2
    capabilities = (await self_model.get_self(graph, agent)).capabilities
    assert {c.domain: c.experience_count for c in capabilities} == {
        "task_execution": 3,
        "quarterly report": 2,
    }


async def test_an_unknown_agent_is_refused(graph: GraphClient) -> None:
    from app.errors import AgentNotFound

    with pytest.raises(AgentNotFound):
        await reflect(graph, None, FakeReasoner(), "no-such-agent")


# --- REST and CLI --------------------------------------------------------------------------------


@pytest.fixture
def fake_reasoner_client(settings: Settings) -> Iterator[TestClient]:
    """An API of its own whose runtime reflects with :class:`FakeReasoner` (the session's
    ``client`` keeps the offline reasoner for every other test)."""
    with TestClient(create_app(settings)) as test_client:
        runtime_of(test_client).use_reasoner(FakeReasoner())
        yield test_client


async def test_reflect_over_rest(
    graph: GraphClient, agent: str, fake_reasoner_client: TestClient
) -> None:
    ids = await _import(graph, agent, _standard_items())
    url = f"/v1/agents/{agent}/reflect"

    preview = fake_reasoner_client.post(url, json={"dry_run": True})
    # The default cluster is 3 (seed 003): the bank trio only; pairs when asked for.
    assert [len(c["episode_ids"]) for c in preview.json()["clusters"]] == [3]
    done = fake_reasoner_client.post(url, json={"min_cluster_size": 2})
    again = fake_reasoner_client.post(url, json={"min_cluster_size": 2})
    bad = fake_reasoner_client.post(url, json={"similarity": 2, "colour": "red"})
    missing = fake_reasoner_client.post("/v1/agents/no-such-agent/reflect")

    assert preview.status_code == 200 and preview.json()["dry_run"] is True
    assert done.status_code == 200, done.text
    body = done.json()
    assert [c["episode_ids"] for c in body["clusters"]] == [
        [ids[f"bank-{i}"] for i in range(3)],
        [ids["report-10"], ids["report-11"]],
    ]
    assert all(c["rule_id"] for c in body["clusters"])
    assert body["skipped"]["trivial"] == 2
    assert again.status_code == 200 and again.json()["clusters"] == []
    assert bad.status_code == 422
    assert {tuple(e["location"]) for e in bad.json()["error"]["details"]["errors"]} == {
        ("body", "similarity"),
        ("body", "colour"),
    }
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "agent_not_found"


async def test_a_reasoner_failure_over_rest_is_a_clear_error(
    graph: GraphClient, agent: str, fake_reasoner_client: TestClient
) -> None:
    await _import(graph, agent, _standard_items()[:3])
    runtime_of(fake_reasoner_client).use_reasoner(FakeReasoner(fail_on_call=1))

    failed = fake_reasoner_client.post(f"/v1/agents/{agent}/reflect")

    assert failed.status_code == 502
    error = failed.json()["error"]
    assert error["code"] == "reflection_failed" and "nothing was written" in error["message"]
    assert (await rules.list_rules(graph, agent)).count == 0


async def test_reflection_with_the_offline_reasoner(graph: GraphClient, agent: str) -> None:
    ids = await _import(graph, agent, _standard_items())
    embedder = shared_embedder_for_tests()

    report = await reflect(graph, embedder, OfflineReasoner(embedder), agent, now=NOW)

    bank, quarterly = report.clusters
    assert bank.episode_ids == [ids[f"bank-{i}"] for i in range(3)]
    assert bank.reasoner == quarterly.reasoner == "offline"
    assert "bank" in bank.trigger_concept
    assert "worked 2 of 3 times" in bank.content and "it failed 1 of 3 times" in bank.content
    assert 0 < bank.confidence < 1
    assert "quarterly" in quarterly.trigger_concept
    assert report.knowledge_gaps_added == [
        f"{quarterly.trigger_concept} (similar episodes mostly failed)"
    ]
    stored = {r.id: r for r in (await rules.list_rules(graph, agent)).data}
    assert stored[bank.rule_id or ""].content == bank.content
    assert stored[bank.rule_id or ""].source == "reflection"


def test_reflect_from_the_terminal(cli: CliRunner, tmp_path: Any, graph: object) -> None:
    created = cli.invoke(cli_app, ["agents", "create", "Reflective Rita"])
    found = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert found is not None, created.output
    agent_id = found.group(1)
    log = tmp_path / "log.jsonl"
    log.write_text(
        "\n".join(
            json.dumps({**item, "occurred_at": item["occurred_at"].isoformat()})
            for item in _standard_items()
        ),
        encoding="utf-8",
    )
    imported = cli.invoke(cli_app, ["episodes", "import", str(log), "--agent", agent_id])
    assert imported.exit_code == 0, imported.output

    pairs = ["--min-cluster-size", "2"]
    preview = cli.invoke(cli_app, ["memory", "reflect", "--agent", agent_id, "--dry-run", *pairs])
    done = cli.invoke(cli_app, ["memory", "reflect", "--agent", agent_id, *pairs])
    again = cli.invoke(cli_app, ["memory", "reflect", "--agent", agent_id, *pairs])
    bad = cli.invoke(cli_app, ["memory", "reflect", "--agent", agent_id, "--similarity", "2"])
    missing = cli.invoke(cli_app, ["memory", "reflect", "--agent", "no-such-agent"])

    assert preview.exit_code == 0, preview.output
    assert "2 cluster(s) from 7 episode(s) — dry run, nothing written" in preview.output
    assert "(preview)" in preview.output and "2 trivial" in preview.output
    assert done.exit_code == 0, done.output
    assert "2 cluster(s) from 7 episode(s)" in done.output and "(preview)" not in done.output
    assert "capability task" in done.output and "offline" in done.output
    assert "knowledge gap:" in done.output and "mostly failed" in done.output
    assert again.exit_code == 0 and "0 cluster(s) from 2 episode(s)" in again.output
    assert bad.exit_code != 0 and "similarity" in bad.output
    assert missing.exit_code == 1 and "agent_not_found" in missing.output


# --- targeted reflection (seed 003's /s3-reflect) ------------------------------------------------


async def test_a_targeted_reflection_draws_one_rule_from_named_or_recent_episodes(
    graph: GraphClient, agent: str, fake_reasoner_client: TestClient
) -> None:
    ids = await _import(graph, agent, _standard_items())
    url = f"/v1/agents/{agent}/reflect"

    # One episode, however unlike the rest: one rule from it alone.
    one = fake_reasoner_client.post(url, json={"episode_ids": [ids["lone-20"]]})
    assert one.status_code == 200, one.text
    [cluster] = one.json()["clusters"]
    assert cluster["episode_ids"] == [ids["lone-20"]] and cluster["rule_id"]
    assert one.json()["min_cluster_size"] == 1

    # The last N unconsolidated non-trivial episodes, oldest first, as one group.
    recent = fake_reasoner_client.post(url, json={"recent": 3, "dry_run": True}).json()
    [group] = recent["clusters"]
    assert group["size"] == 3 and len(set(group["episode_ids"])) == 3
    assert ids["lone-20"] not in group["episode_ids"]  # consolidated by the first
    # Named again: nothing to draw a rule from, and the answer says why (docs/memory.md §7).
    again = fake_reasoner_client.post(url, json={"episode_ids": [ids["lone-20"]]}).json()
    assert again["clusters"] == [] and again["skipped"]["consolidated"] == 1
    assert group["episode_ids"] == [ids["report-10"], ids["report-11"], ids["lone-21"]]
    trivial = fake_reasoner_client.post(url, json={"episode_ids": [ids["trivial-30"]]}).json()
    assert trivial["clusters"] == [] and trivial["skipped"]["trivial"] == 1

    both = fake_reasoner_client.post(url, json={"recent": 2, "episode_ids": [ids["bank-0"]]})
    blank = fake_reasoner_client.post(url, json={"episode_ids": [ids["bank-0"], "  "]})
    assert blank.status_code == 422, blank.text  # a blank id is malformed, not a missing episode
    assert ["body", "episode_ids", 1] in [
        e["location"] for e in blank.json()["error"]["details"]["errors"]
    ]
    too_many = fake_reasoner_client.post(url, json={"recent": 11})
    assert both.status_code == 422 and too_many.status_code == 422
    assert ("body", "recent") in {
        tuple(e["location"]) for e in too_many.json()["error"]["details"]["errors"]
    }


def test_an_insight_learned_from_the_terminal_is_a_manual_rule_at_0_8(
    cli: CliRunner, graph: object
) -> None:
    created = cli.invoke(cli_app, ["agents", "create", "Insightful Ines"])
    found = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert found is not None, created.output
    insight = "Always run database migrations in a transaction so they can be rolled back"
    learned = cli.invoke(
        cli_app, ["memory", "learn", insight, "--domain", "Database", "--agent", found.group(1)]
    )
    assert learned.exit_code == 0, learned.output
    assert "Database" in learned.output and "confidence 0.80, manual" in learned.output
    blank = cli.invoke(cli_app, ["memory", "learn", "   ", "--agent", found.group(1)])
    assert blank.exit_code != 0 and "empty" in blank.output


def test_values_the_memory_commands_refuse_are_usage_errors(cli: CliRunner, graph: object) -> None:
    created = cli.invoke(cli_app, ["agents", "create", "Careless Cal"])
    found = re.search(r"CREDENCE_AGENT_ID=(\S+)", created.output)
    assert found is not None, created.output
    agent = ["--agent", found.group(1)]
    eleven = [arg for i in range(11) for arg in ("--episode", f"e{i}")]

    too_many = cli.invoke(cli_app, ["memory", "reflect", *agent, *eleven])
    too_early = cli.invoke(cli_app, ["memory", "reflect", *agent, "--since", "0001-01-01"])
    too_long = cli.invoke(cli_app, ["memory", "learn", "word " * 600, *agent])
    bell = cli.invoke(cli_app, ["memory", "learn", "ring the\x07bell", *agent])
    assert bell.exit_code == 2 and "control character" in bell.output

    # Exit 2 naming the field and why, never a traceback.
    for result, field in ((too_many, "episode_ids"), (too_early, "since"), (too_long, "content")):
        assert result.exit_code == 2, result.output
        assert field in result.output and "Traceback" not in result.output
