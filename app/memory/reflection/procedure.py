"""One reflection, step by step (the package's docstring has the whole procedure)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from app.common import utc_now
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient
from app.memory.introspection import introspect
from app.memory.reflection.abstraction import abstract_rules, embed_rules
from app.memory.reflection.candidates import read_candidates, read_targeted
from app.memory.reflection.clustering import cluster_by_similarity
from app.memory.reflection.models import (
    ReflectedCluster,
    ReflectionReport,
    ReflectRequest,
    RuleAbstractor,
    SkippedEpisodes,
)
from app.memory.reflection.plans import (
    Candidates,
    ClusterPlan,
    ReflectionScope,
    cluster_plans,
    outcome_counts,
)
from app.memory.reflection.writing import write_reflection
from app.memory.settings import MemoryMechanics, ReflectionSettings

log = logging.getLogger(__name__)


def _similarity(scope: ReflectionScope, embedder: Embedder | None) -> tuple[float, float]:
    """The clustering similarity asked for (or the setting), on all-MiniLM-L6-v2's cosine scale
    as every threshold, and the same on the running model's scale, which clusters."""
    similarity = scope.request.similarity
    if similarity is None:
        similarity = scope.settings.similarity
    return similarity, embedder.threshold(similarity) if embedder is not None else similarity


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
        now: the time recorded as ``consolidated_at`` and the rules' ``created_at`` (None: the
            graph's clock, the process's injected clock, never the machine's).

    Returns:
        The clusters with their rules, skipped counts, capability changes and gaps added.

    Raises:
        AgentNotFound: no such agent.
        ReflectionFailed: the reasoner failed or answered an unusable rule (nothing written).
    """
    model = embedder.model_id if embedder is not None else None
    scope = ReflectionScope(
        agent_id=agent_id,
        request=request or ReflectRequest(),
        settings=settings or ReflectionSettings(),
        mechanics=mechanics or MemoryMechanics(),
        at=utc_now(now if now is not None else graph.clock.now()),
        embedding_model=model,
    )
    similarity, threshold = _similarity(scope, embedder)
    candidates, groups, min_size = await _groups(graph, embedder, scope, threshold)
    plans = cluster_plans(candidates, groups, scope.settings)
    await abstract_rules(graph, reasoner, plans, scope)
    rules_embedded = await embed_rules(embedder, plans, scope.request)
    written = await write_reflection(graph, plans, scope)
    goals = await _introspect_if_moved(graph, scope, bool(written.capabilities))
    clusters = [reflected_cluster(plan, rule_id) for plan, rule_id in written.rules]
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
        suggested_goals=goals,
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


async def _groups(
    graph: GraphClient, embedder: Embedder | None, scope: ReflectionScope, threshold: float
) -> tuple[Candidates, list[list[int]], int]:
    """The candidates, the groups a rule is abstracted from (clustered at ``threshold``, on the
    running model's cosine scale), and the least group size."""
    if scope.request.targeted:
        # Seed 003's reflection on named or recent episodes: one group, one rule, no clustering.
        candidates = await read_targeted(graph, embedder, scope)
        return (
            candidates,
            ([list(range(len(candidates.episodes)))] if candidates.episodes else []),
            1,
        )
    min_size = scope.request.min_cluster_size or scope.settings.min_cluster_size
    candidates = await read_candidates(graph, embedder, scope)
    # Up to seconds of numpy for thousands of episodes: off the event loop.
    partition = await asyncio.to_thread(cluster_by_similarity, candidates.unit, threshold)
    return candidates, [g for g in partition if len(g) >= min_size], min_size


async def _introspect_if_moved(
    graph: GraphClient, scope: ReflectionScope, capabilities_moved: bool
) -> list[str]:
    """When the reflection moved capabilities, the agent reads its track record again (seed
    003); the goals it suggests."""
    if scope.request.dry_run or not capabilities_moved:
        return []
    looked = await introspect(graph, scope.agent_id, mechanics=scope.mechanics, now=scope.at)
    return looked.suggested_goals


def reflected_cluster(plan: ClusterPlan, rule_id: str | None) -> ReflectedCluster:
    assert plan.rule is not None and plan.abstracted is not None
    return ReflectedCluster(
        episode_ids=[m.id for m in plan.members],
        size=len(plan.members),
        cohesion=round(plan.cohesion, 4),
        outcomes=outcome_counts(plan.members),
        domain=plan.domain,
        rule_id=rule_id,
        trigger_concept=plan.rule.trigger_concept,
        content=plan.rule.content,
        confidence=plan.rule.confidence,
        reasoner=plan.abstracted.reasoner,
        knowledge_gap=plan.gap,
    )
