"""The reflection's one transaction, under the agent's lock: the rules linked to their episodes,
the episodes marked consolidated, the capabilities and the knowledge gaps (a dry run reads the
same and writes nothing)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from app.errors import Conflict
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.reflection.models import CapabilityChange, ReflectRequest
from app.memory.reflection.plans import CandidateEpisode, ClusterPlan, ReflectionScope
from app.memory.self_model import CapabilityState, capability_after, merged_gaps
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.text.lexical import scored_words


@dataclass(frozen=True)
class Written:
    """What the reflection's transaction wrote (or, in a dry run, would write)."""

    rules: list[tuple[ClusterPlan, str | None]]
    raced: int
    capabilities: list[CapabilityChange]
    gaps: list[str]


async def write_reflection(
    graph: GraphClient, plans: list[ClusterPlan], scope: ReflectionScope
) -> Written:
    """Writes the rules, consolidation marks, capabilities and gaps in one transaction (a dry run
    reads the same under a read transaction; no plan, no transaction)."""

    async def work(tx: Transaction) -> Written:
        return await _write_in(tx, plans, scope)

    if scope.request.dry_run:
        return await graph.read_transaction(work, action="previewing a reflection")
    # Even without a cluster: the reflection ran, so the agent's count of episodes since the
    # last one starts again (whether the loop or a user asked for it).
    return await graph.write_transaction(work, action="writing a reflection")


async def _write_in(tx: Transaction, plans: list[ClusterPlan], scope: ReflectionScope) -> Written:
    request, agent_id = scope.request, scope.agent_id
    if not request.dry_run:
        await lock_agent(tx, agent_id)
        await tx.run("memory/reflection/mark_reflected", agent_id=agent_id)
    still_open = {
        row["id"]
        for row in await tx.run(
            "memory/reflection/find_unconsolidated_episodes",
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
            "memory/reflection/mark_episodes_consolidated",
            agent_id=agent_id,
            episode_ids=[m.id for p in kept for m in p.members],
            now=scope.at,
        )
    changes = await _update_capabilities(
        tx, agent_id, kept, scope.settings, scope.mechanics, scope.at, request
    )
    gaps = await _add_gaps(tx, agent_id, kept, scope.mechanics, request)
    return Written(rules=written, raced=raced, capabilities=changes, gaps=gaps)


async def _create_rule(tx: Transaction, plan: ClusterPlan, scope: ReflectionScope) -> str | None:
    """The plan's rule linked to its episodes; None in a dry run.

    Raises:
        Conflict: an episode of the cluster vanished (everything rolls back).
    """
    assert plan.rule is not None
    if scope.request.dry_run:
        return None
    rule_id = str(uuid.uuid4())
    episode_ids = [m.id for m in plan.members]
    created = await tx.run(
        "memory/rules/create_rule",
        agent_id=scope.agent_id,
        embedding_model=scope.embedding_model,
        rule={
            "id": rule_id,
            **plan.rule.model_dump(),
            "derived_from": episode_ids,
            "embedding": plan.embedding,
            **scored_words(plan.rule.content),
        },
        now=scope.at,
    )
    if set(created[0]["linked"]) != set(episode_ids):
        # Re-checked under the lock just before: raising rolls everything back.
        raise Conflict(
            "episodes of a cluster vanished while the reflection was written (deleted "
            "meanwhile); nothing was written, reflect again",
            episode_ids=episode_ids,
        )
    return rule_id


async def _update_capabilities(
    tx: Transaction,
    agent_id: str,
    kept: list[ClusterPlan],
    settings: ReflectionSettings,
    mechanics: MemoryMechanics,
    at: datetime,
    request: ReflectRequest,
) -> list[CapabilityChange]:
    """Applies each cluster's successes and failures, oldest first, to its domain's capability
    (the self-model's queries and formula, inside the reflection's transaction)."""
    outcomes: dict[str, list[CandidateEpisode]] = {}
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
            "memory/self_model/get_capability",
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
                "memory/self_model/save_capability",
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
    kept: list[ClusterPlan],
    mechanics: MemoryMechanics,
    request: ReflectRequest,
) -> list[str]:
    """Adds the mostly-failing clusters' gaps; returns those that were new."""
    wanted = [p.gap for p in kept if p.gap]
    if not wanted:
        return []
    rows = await tx.run("memory/self_model/get_identity", agent_id=agent_id)
    current: list[str] = rows[0]["identity"].get("knowledge_gaps") or []
    merged = merged_gaps(current, wanted, mechanics.max_knowledge_gaps)
    known = {gap.casefold() for gap in current}
    added = [gap for gap in merged if gap.casefold() not in known]
    if added and not request.dry_run:
        await tx.run("memory/self_model/set_knowledge_gaps", agent_id=agent_id, gaps=merged)
    return added
