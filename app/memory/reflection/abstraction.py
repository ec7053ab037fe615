"""A rule per cluster from the reasoner (every call before anything is written), and the rules'
vectors."""

from __future__ import annotations

import asyncio

from pydantic import ValidationError

from app.embeddings.embedder import Embedder
from app.errors import CredenceError
from app.graph.client import GraphClient
from app.memory import rules as rule_store
from app.memory.reflection.models import ReflectionFailed, ReflectRequest, RuleAbstractor
from app.memory.reflection.plans import (
    ClusterPlan,
    ReflectionScope,
    domain_of,
    gap_of,
    outcome_counts,
)
from app.memory.rules import RuleCreate
from app.reasoning.protocol import RuleRequest


async def _abstract(
    reasoner: RuleAbstractor,
    plans: list[ClusterPlan],
    existing: list[str],
    concurrency: int,
) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int, plan: ClusterPlan) -> None:
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


async def abstract_rules(
    graph: GraphClient, reasoner: RuleAbstractor, plans: list[ClusterPlan], scope: ReflectionScope
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
        plan.domain = domain_of(plan.members, plan.rule.trigger_concept, settings)
        plan.gap = gap_of(outcome_counts(plan.members), plan.rule.trigger_concept, settings)


async def embed_rules(
    embedder: Embedder | None, plans: list[ClusterPlan], request: ReflectRequest
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
