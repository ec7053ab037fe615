"""Reflection and consolidation (docs/memory.md §7): recent experience becomes rules.

One reflection:

1. **reads** the agent's most recent unconsolidated, non-trivial episodes that have an embedding
   (``max_episodes`` of them, optionally only those since ``since``). Trivial episodes (fewer than
   2 actions) are kept but never consolidated; episodes without a vector yet are skipped and
   counted (``credence embed backfill`` gives them one).
2. **clusters** them by cosine similarity of their stored embeddings: average-linkage
   agglomerative clustering that keeps merging the two most similar clusters while their mean
   pairwise similarity is at least ``similarity`` (:func:`cluster_by_similarity`). It does not
   depend on the order the episodes are read in, and ties break by age, so the same episodes
   always give the same clusters. Clusters smaller than ``min_cluster_size`` are left alone: their
   episodes stay unconsolidated for a later reflection.
3. **abstracts** one rule per cluster with the reasoner (``abstract_rule``), given the cluster's
   episodes (the most central ones when it is large) and the agent's strongest existing rules.
   Every reasoner call happens before anything is written, so a reasoner failure writes nothing.
4. **writes**, in one transaction under the agent's lock: each rule (source ``reflection``,
   embedded when embeddings are available) with ``DERIVED_FROM`` edges to its episodes; the
   episodes ``consolidated = true`` with ``consolidated_at``; the capabilities; the knowledge
   gaps. Under the lock it first re-checks that every clustered episode is still unconsolidated:
   a cluster that a concurrent reflection consolidated meanwhile is dropped (reported as
   ``raced``), so two reflections never make duplicate rules. A second reflection over the same
   episodes finds nothing new.

Capabilities: each cluster has a domain — the most common frame of its episodes (``task``,
``debug``...), or the rule's trigger concept when none has a frame (setting
``capability_domain``). Each success and failure among its episodes is applied, oldest first, with
the self-model's formulas (:func:`app.memory.self_model.capability_after`: success-rate EMA,
proficiency ± step · complexity). The self-model's service functions each open their own
transaction, so this module runs the same catalog queries (``self_model/get_capability``,
``save_capability``, ``get_identity``, ``set_knowledge_gaps``) and the same pure functions inside
the reflection's transaction instead: a reflection is then all-or-nothing, capabilities included.

Knowledge gaps: a cluster whose outcomes are mostly failures (failure share of its success /
failure / partial outcomes above ``gap_failure_share``) adds the gap "<trigger concept> (similar
episodes mostly failed)", merged with :func:`app.memory.self_model.merged_gaps`.

``dry_run`` runs every step, the reasoner included (the rules are previewed), and writes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from app.common import utc_now
from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings
from app.errors import AgentNotFound, CredenceError
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory import rules as rule_store
from app.memory.rules import RuleCreate
from app.memory.self_model import CapabilityState, capability_after, merged_gaps
from app.memory.settings import MAX_EPISODES_LIMIT, MemoryMechanics, ReflectionSettings
from app.reasoning.protocol import AbstractedRule, EpisodeBrief, RuleRequest

log = logging.getLogger(__name__)

OUTCOME_KEYS = ("success", "failure", "partial", "neutral", "unknown")
# "since the beginning": a bound the composite index can seek from (a null could not).
EARLIEST = datetime(1, 1, 1, tzinfo=UTC)


class ReflectRequest(BaseModel):
    """What to reflect on; every field is optional (defaults from :class:`ReflectionSettings`)."""

    model_config = ConfigDict(extra="forbid")

    since: datetime | None = Field(
        default=None, description="Only episodes that occurred at or after this time."
    )
    min_cluster_size: Annotated[int | None, Field(ge=2, le=1000)] = None
    similarity: Annotated[
        float | None,
        Field(ge=0.0, le=1.0, description="Cosine similarity at which episodes cluster."),
    ] = None
    max_episodes: Annotated[int | None, Field(ge=1, le=MAX_EPISODES_LIMIT)] = None
    dry_run: bool = Field(default=False, description="Cluster and abstract, write nothing.")

    @field_validator("since")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class ReflectedCluster(BaseModel):
    episode_ids: list[str] = Field(description="Oldest first.")
    size: int
    cohesion: float = Field(description="Mean pairwise cosine similarity of its episodes.")
    outcomes: dict[str, int]
    domain: str = Field(description="The capability its outcomes were recorded in.")
    rule_id: str | None = Field(description="The rule written (null in a dry run).")
    trigger_concept: str
    content: str
    confidence: float
    reasoner: str
    knowledge_gap: str | None = None


class SkippedEpisodes(BaseModel):
    trivial: int = Field(description="Unconsolidated trivial episodes (never consolidated).")
    without_embedding: int = Field(
        description="Non-trivial episodes without a vector (`credence embed backfill`)."
    )
    beyond_limit: int = Field(description="Older eligible episodes past max_episodes.")
    unclustered: int = Field(description="Episodes in no cluster of at least min_cluster_size.")
    raced: int = Field(description="Clustered episodes a concurrent reflection consolidated first.")


class CapabilityChange(BaseModel):
    domain: str
    successes: int
    failures: int
    before: CapabilityState
    after: CapabilityState


class ReflectionReport(BaseModel):
    agent_id: str
    dry_run: bool
    since: datetime | None
    similarity: float
    min_cluster_size: int
    considered: int = Field(description="Episodes clustered.")
    clusters: list[ReflectedCluster]
    skipped: SkippedEpisodes
    capabilities: list[CapabilityChange]
    knowledge_gaps_added: list[str]
    rules_embedded: bool = Field(description="Whether the new rules got their vectors now.")


class RuleAbstractor(Protocol):
    """The part of :class:`app.reasoning.protocol.Reasoner` reflection needs."""

    async def abstract_rule(self, request: RuleRequest) -> AbstractedRule: ...


class ReflectionFailed(CredenceError):
    """The reasoner could not abstract a rule for a cluster; nothing was written."""

    code = "reflection_failed"


@dataclass(frozen=True)
class _Episode:
    id: str
    text: str
    outcome: str | None
    frame: str | None
    occurred_at: datetime
    # A chat turn counted its outcome in the capability when it happened; counting it again here
    # would double it.
    counted_by_turn: bool = False


@dataclass
class _Plan:
    members: list[_Episode]
    cohesion: float
    briefs: list[EpisodeBrief]
    rule: RuleCreate | None = None
    abstracted: AbstractedRule | None = None
    embedding: list[float] | None = None
    domain: str = ""
    gap: str | None = None


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: np.ndarray = vectors / np.where(norms == 0.0, 1.0, norms)
    return unit


def cluster_by_similarity(
    vectors: Sequence[Sequence[float]] | np.ndarray, threshold: float
) -> list[list[int]]:
    """Average-linkage agglomerative clustering by cosine similarity (scipy); pure and
    deterministic.

    Clusters merge while their mean pairwise cosine is at least ``threshold``: average linkage
    has no inversions, so cutting scipy's full tree at cosine distance ``1 - threshold`` gives
    exactly those clusters.

    Returns:
        Every input index in exactly one cluster; each cluster sorted, clusters ordered by
        their first index.
    """
    count = len(vectors)
    if count <= 1:
        return [[0]] if count else []
    unit = _unit_rows(np.asarray(vectors, dtype=np.float64))
    # A zero vector is at distance 1 from everything (similarity 0), as the reasoner expects.
    distance = np.clip(1.0 - unit @ unit.T, 0.0, 2.0)
    distance = (distance + distance.T) / 2.0
    np.fill_diagonal(distance, 0.0)
    tree = linkage(squareform(distance, checks=False), method="average")
    labels = fcluster(tree, t=1.0 - threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for index, label in enumerate(labels):
        groups.setdefault(int(label), []).append(index)
    return sorted(groups.values(), key=lambda group: group[0])


def _cohesion(unit: np.ndarray) -> float:
    size = len(unit)
    if size < 2:
        return 1.0
    pairwise = unit @ unit.T
    return float((pairwise.sum() - np.trace(pairwise)) / (size * (size - 1)))


def _central(unit: np.ndarray, limit: int) -> list[int]:
    """Positions of the ``limit`` rows closest to the centroid, in their original order."""
    if len(unit) <= limit:
        return list(range(len(unit)))
    closeness = unit @ unit.mean(axis=0)
    ranked = sorted(range(len(unit)), key=lambda i: (-float(closeness[i]), i))
    return sorted(ranked[:limit])


def _outcome_counts(members: list[_Episode]) -> dict[str, int]:
    counts = Counter(m.outcome if m.outcome in OUTCOME_KEYS else "unknown" for m in members)
    return {key: counts.get(key, 0) for key in OUTCOME_KEYS}


def _concept_domain(concept: str) -> str:
    return " ".join(concept.split()).lower()[:120]


def _domain(members: list[_Episode], concept: str, settings: ReflectionSettings) -> str:
    if settings.capability_domain == "frame":
        frames = Counter(m.frame for m in members if m.frame)
        if frames:
            # Most common; a tie goes to the alphabetically first frame.
            return min(frames, key=lambda frame: (-frames[frame], frame))
    return _concept_domain(concept)


def _gap(counts: dict[str, int], concept: str, settings: ReflectionSettings) -> str | None:
    judged = counts["success"] + counts["failure"] + counts["partial"]
    if judged == 0 or counts["failure"] / judged <= settings.gap_failure_share:
        return None
    return f"{' '.join(concept.split())} (similar episodes mostly failed)"


async def _abstract(
    reasoner: RuleAbstractor,
    plans: list[_Plan],
    existing: list[str],
    concurrency: int,
) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int, plan: _Plan) -> None:
        ids = ", ".join(m.id for m in plan.members[:5])
        more = ", …" if len(plan.members) > 5 else ""
        where = f"cluster {index + 1} of {len(plans)} (episodes {ids}{more})"
        async with gate:
            try:
                answer = await reasoner.abstract_rule(
                    RuleRequest(episodes=plan.briefs, existing_rules=existing)
                )
            except CredenceError as error:
                raise ReflectionFailed(
                    f"the reasoner failed on {where}: {error.message}; nothing was written",
                    cluster=index,
                    episode_ids=[m.id for m in plan.members],
                    cause=error.code,
                ) from error
            except Exception as error:  # any reasoner failure aborts the whole reflection
                raise ReflectionFailed(
                    f"the reasoner failed on {where}: {type(error).__name__}: {error}; "
                    "nothing was written",
                    cluster=index,
                    episode_ids=[m.id for m in plan.members],
                ) from error
        try:
            # The episodes are linked by _create_rule, not validated here: a cluster may hold
            # more episodes than a rule created through the API may name (RuleCreate's limit).
            plan.rule = RuleCreate(
                trigger_concept=answer.trigger_concept,
                content=answer.content,
                source="reflection",
                confidence=answer.confidence,
            )
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in item['loc'])}: {item['msg']}" for item in error.errors()
            )
            raise ReflectionFailed(
                f"the reasoner's rule for {where} is unusable ({problems}); nothing was written",
                cluster=index,
                episode_ids=[m.id for m in plan.members],
            ) from error
        plan.abstracted = answer

    await asyncio.gather(*(one(index, plan) for index, plan in enumerate(plans)))


@dataclass(frozen=True)
class _Candidates:
    """The unconsolidated episodes a reflection looks at, oldest first, with their unit vectors
    and the counts of those it skipped."""

    episodes: list[_Episode]
    unit: np.ndarray
    skipped: dict[str, int]


@dataclass(frozen=True)
class _Written:
    """What the reflection's transaction wrote (or, in a dry run, would write)."""

    rules: list[tuple[_Plan, str | None]]
    raced: int
    capabilities: list[CapabilityChange]
    gaps: list[str]


@dataclass(frozen=True)
class _Scope:
    """One reflection's fixed inputs, shared by its steps."""

    agent_id: str
    request: ReflectRequest
    settings: ReflectionSettings
    mechanics: MemoryMechanics
    at: datetime


async def reflect(
    graph: GraphClient,
    embedder: Embedder | None,
    reasoner: RuleAbstractor,
    agent_id: str,
    request: ReflectRequest | None = None,
    *,
    settings: ReflectionSettings | None = None,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> ReflectionReport:
    """Clusters recent unconsolidated episodes and consolidates each cluster into a rule (the
    module docstring has the whole procedure).

    Args:
        graph: the graph client.
        embedder: embeds the new rules (None or unavailable: they are marked embedding_pending).
        reasoner: abstracts one rule per cluster.
        agent_id: the agent.
        request: since / min_cluster_size / similarity / max_episodes / dry_run.
        settings: reflection settings (defaults for the request's fields).
        mechanics: the self-model's numbers (capability EMA and steps, gap limit).
        now: the time recorded as ``consolidated_at`` and the rules' ``created_at``.

    Returns:
        The clusters with their rules, skipped counts, capability changes and gaps added.

    Raises:
        AgentNotFound: no such agent.
        ReflectionFailed: the reasoner failed or answered an unusable rule (nothing written).
    """
    scope = _Scope(
        agent_id=agent_id,
        request=request or ReflectRequest(),
        settings=settings or ReflectionSettings(),
        mechanics=mechanics or MemoryMechanics(),
        at=utc_now(now),
    )
    similarity = scope.request.similarity
    if similarity is None:
        similarity = scope.settings.similarity
    min_size = scope.request.min_cluster_size or scope.settings.min_cluster_size
    candidates = await _read_candidates(graph, embedder, scope)
    # Up to seconds of numpy for thousands of episodes: off the event loop.
    partition = await asyncio.to_thread(cluster_by_similarity, candidates.unit, similarity)
    plans = _plans(candidates, [g for g in partition if len(g) >= min_size], scope.settings)
    await _abstract_rules(graph, reasoner, plans, scope)
    rules_embedded = await _embed_rules(embedder, plans, scope.request)
    written = await _write(graph, plans, scope)
    clusters = [_reflected(plan, rule_id) for plan, rule_id in written.rules]
    clustered = sum(len(p.members) for p in plans)
    report = ReflectionReport(
        agent_id=agent_id,
        dry_run=scope.request.dry_run,
        since=scope.request.since,
        similarity=similarity,
        min_cluster_size=min_size,
        considered=len(candidates.episodes),
        clusters=clusters,
        skipped=SkippedEpisodes(
            **candidates.skipped,
            unclustered=len(candidates.episodes) - clustered,
            raced=written.raced,
        ),
        capabilities=written.capabilities,
        knowledge_gaps_added=written.gaps,
        rules_embedded=rules_embedded and bool(clusters),
    )
    log.info(
        "reflection of %s%s: %d episodes, %d clusters, %d rules",
        agent_id,
        " (dry run)" if scope.request.dry_run else "",
        len(candidates.episodes),
        len(clusters),
        0 if scope.request.dry_run else len(clusters),
    )
    return report


async def _read_candidates(
    graph: GraphClient, embedder: Embedder | None, scope: _Scope
) -> _Candidates:
    """The agent's unconsolidated episodes with vectors, oldest first (ties in clustering and the
    order of a cluster's episodes follow age).

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "reflection/list_reflection_candidates",
        agent_id=scope.agent_id,
        since=scope.request.since or EARLIEST,
        limit=scope.request.max_episodes or scope.settings.max_episodes,
        dimensions=embedder.dimensions if embedder is not None else EmbeddingSettings().dimensions,
    )
    if not rows:
        raise AgentNotFound(scope.agent_id)
    found = rows[0]
    raw = sorted(found["episodes"], key=lambda e: (e["occurred_at"], e["id"]))
    episodes = [
        _Episode(
            id=e["id"],
            text=e["text"],
            outcome=e["outcome"],
            frame=e["frame"],
            occurred_at=e["occurred_at"],
            counted_by_turn=e.get("kind") == "turn",
        )
        for e in raw
    ]
    unit = (
        _unit_rows(np.asarray([e["embedding"].to_numpy() for e in raw], dtype=np.float64))
        if raw
        else np.zeros((0, 0))
    )
    skipped = {
        "trivial": found["trivial"],
        "without_embedding": found["without_embedding"],
        "beyond_limit": max(0, found["eligible"] - len(episodes)),
    }
    return _Candidates(episodes=episodes, unit=unit, skipped=skipped)


def _plans(
    candidates: _Candidates, groups: list[list[int]], settings: ReflectionSettings
) -> list[_Plan]:
    """One plan per cluster: its members, cohesion and the briefs of its most central episodes."""
    plans: list[_Plan] = []
    for group in groups:
        vectors = candidates.unit[group]
        members = [candidates.episodes[i] for i in group]
        briefs = [
            EpisodeBrief(
                id=members[i].id,
                text=members[i].text[: settings.brief_chars],
                outcome=members[i].outcome,
                frame=members[i].frame,
            )
            for i in _central(vectors, settings.max_briefs_per_cluster)
        ]
        plans.append(_Plan(members=members, cohesion=_cohesion(vectors), briefs=briefs))
    return plans


async def _abstract_rules(
    graph: GraphClient, reasoner: RuleAbstractor, plans: list[_Plan], scope: _Scope
) -> None:
    """A rule per plan from the reasoner (shown the agent's existing rules), then its domain and
    knowledge gap."""
    settings = scope.settings
    if plans:
        existing = []
        if settings.existing_rules:
            page = await rule_store.list_rules(
                graph,
                scope.agent_id,
                limit=settings.existing_rules,
                mechanics=scope.mechanics,
                now=scope.at,
            )
            existing = [f"{r.trigger_concept}: {r.content}" for r in page.data]
        await _abstract(reasoner, plans, existing, settings.reasoner_concurrency)
    for plan in plans:
        assert plan.rule is not None
        plan.domain = _domain(plan.members, plan.rule.trigger_concept, settings)
        plan.gap = _gap(_outcome_counts(plan.members), plan.rule.trigger_concept, settings)


async def _embed_rules(
    embedder: Embedder | None, plans: list[_Plan], request: ReflectRequest
) -> bool:
    """Embeds the new rules in one batch; False when they stay embedding_pending."""
    if not plans or request.dry_run or embedder is None:
        return False
    texts = [rule_store.embedding_text(p.rule) for p in plans if p.rule is not None]
    vectors = await embedder.embed(texts)
    if vectors is None:
        return False
    for plan, vector in zip(plans, vectors, strict=True):
        plan.embedding = vector
    return True


async def _write(graph: GraphClient, plans: list[_Plan], scope: _Scope) -> _Written:
    """Writes the rules, consolidation marks, capabilities and gaps in one transaction (a dry run
    reads the same under a read transaction; no plan, no transaction)."""

    async def work(tx: Transaction) -> _Written:
        return await _write_in(tx, plans, scope)

    if scope.request.dry_run:
        return await graph.read_transaction(work, action="previewing a reflection")
    # Even without a cluster: the reflection ran, so the agent's count of episodes since the
    # last one starts again (whether the loop or a user asked for it).
    return await graph.write_transaction(work, action="writing a reflection")


async def _write_in(tx: Transaction, plans: list[_Plan], scope: _Scope) -> _Written:
    request, agent_id = scope.request, scope.agent_id
    if not request.dry_run:
        await lock_agent(tx, agent_id)
        await tx.run("sessions/mark_reflected", agent_id=agent_id)
    still_open = {
        row["id"]
        for row in await tx.run(
            "reflection/find_unconsolidated_episodes",
            agent_id=agent_id,
            episode_ids=[m.id for p in plans for m in p.members],
        )
    }
    # A cluster a concurrent reflection consolidated meanwhile is dropped (reported as raced).
    kept = [p for p in plans if all(m.id in still_open for m in p.members)]
    raced = sum(len(p.members) for p in plans if p not in kept)
    written = [(plan, await _create_rule(tx, plan, scope)) for plan in kept]
    if kept and not request.dry_run:
        await tx.run(
            "reflection/mark_episodes_consolidated",
            agent_id=agent_id,
            episode_ids=[m.id for p in kept for m in p.members],
            now=scope.at,
        )
    changes = await _update_capabilities(
        tx, agent_id, kept, scope.settings, scope.mechanics, scope.at, request
    )
    gaps = await _add_gaps(tx, agent_id, kept, scope.mechanics, request)
    return _Written(rules=written, raced=raced, capabilities=changes, gaps=gaps)


async def _create_rule(tx: Transaction, plan: _Plan, scope: _Scope) -> str | None:
    """The plan's rule linked to its episodes; None in a dry run.

    Raises:
        ReflectionFailed: an episode of the cluster vanished (everything rolls back).
    """
    assert plan.rule is not None
    if scope.request.dry_run:
        return None
    rule_id = str(uuid.uuid4())
    episode_ids = [m.id for m in plan.members]
    created = await tx.run(
        "rules/create_rule",
        agent_id=scope.agent_id,
        rule={
            "id": rule_id,
            **plan.rule.model_dump(),
            "derived_from": episode_ids,
            "embedding": plan.embedding,
        },
        now=scope.at,
    )
    if set(created[0]["linked"]) != set(episode_ids):
        # Re-checked under the lock just before: raising rolls everything back.
        raise ReflectionFailed(
            "episodes of a cluster vanished while the reflection was written; nothing was written",
            episode_ids=episode_ids,
        )
    return rule_id


def _reflected(plan: _Plan, rule_id: str | None) -> ReflectedCluster:
    assert plan.rule is not None and plan.abstracted is not None
    return ReflectedCluster(
        episode_ids=[m.id for m in plan.members],
        size=len(plan.members),
        cohesion=round(plan.cohesion, 4),
        outcomes=_outcome_counts(plan.members),
        domain=plan.domain,
        rule_id=rule_id,
        trigger_concept=plan.rule.trigger_concept,
        content=plan.rule.content,
        confidence=plan.rule.confidence,
        reasoner=plan.abstracted.reasoner,
        knowledge_gap=plan.gap,
    )


async def _update_capabilities(
    tx: Transaction,
    agent_id: str,
    kept: list[_Plan],
    settings: ReflectionSettings,
    mechanics: MemoryMechanics,
    at: datetime,
    request: ReflectRequest,
) -> list[CapabilityChange]:
    """Applies each cluster's successes and failures, oldest first, to its domain's capability
    (the self-model's queries and formula, inside the reflection's transaction)."""
    outcomes: dict[str, list[_Episode]] = {}
    for plan in kept:
        judged = [
            m for m in plan.members if m.outcome in ("success", "failure") and not m.counted_by_turn
        ]
        if judged:
            outcomes.setdefault(plan.domain, []).extend(judged)
    changes: list[CapabilityChange] = []
    for domain in sorted(outcomes):
        ordered = sorted(outcomes[domain], key=lambda m: (m.occurred_at, m.id))
        rows = await tx.run(
            "self_model/get_capability",
            agent_id=agent_id,
            domain=domain,
            defaults={
                "proficiency": mechanics.capability_initial_proficiency,
                "success_rate": mechanics.capability_initial_success_rate,
            },
        )
        before = CapabilityState.model_validate(rows[0]["state"])
        after = before
        for episode in ordered:
            after = capability_after(
                after, episode.outcome == "success", settings.outcome_complexity, mechanics
            )
        if not request.dry_run:
            await tx.run(
                "self_model/save_capability",
                agent_id=agent_id,
                domain=domain,
                state=after.model_dump(),
                now=at,
            )
        successes = sum(1 for m in ordered if m.outcome == "success")
        changes.append(
            CapabilityChange(
                domain=domain,
                successes=successes,
                failures=len(ordered) - successes,
                before=before,
                after=after,
            )
        )
    return changes


async def _add_gaps(
    tx: Transaction,
    agent_id: str,
    kept: list[_Plan],
    mechanics: MemoryMechanics,
    request: ReflectRequest,
) -> list[str]:
    """Adds the mostly-failing clusters' gaps; returns those that were new."""
    wanted = [p.gap for p in kept if p.gap]
    if not wanted:
        return []
    rows = await tx.run("self_model/get_identity", agent_id=agent_id)
    current: list[str] = rows[0]["identity"].get("knowledge_gaps") or []
    merged = merged_gaps(current, wanted, mechanics.max_knowledge_gaps)
    known = {gap.casefold() for gap in current}
    added = [gap for gap in merged if gap.casefold() not in known]
    if added and not request.dry_run:
        await tx.run("self_model/set_knowledge_gaps", agent_id=agent_id, gaps=merged)
    return added
