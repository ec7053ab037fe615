"""Introspection (seed 003): the agent reads its own track record and says what to work on
(docs/memory.md §6).

Each capability with at least ``introspection_min_experience`` outcomes is judged by its numbers:
a success rate below ``introspection_weak_success_rate`` or a proficiency below
``introspection_weak_proficiency`` makes it a **gap** (added to the knowledge gaps, de-duplicated)
and suggests a goal to improve it; a proficiency and a success rate at or above the strong levels
suggest a goal to take on more of it with less supervision. The goals replace the last
introspection's; gaps accumulate like reflection's, except the gap an earlier introspection added
for a capability judged now and no longer weak: that one is no longer true, and goes. It runs
after every reflection that wrote something, and on request
(``POST /v1/agents/{id}/self/introspect``).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from app.common import utc_now
from app.errors import AgentNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.self_model import Capability, merged_gaps
from app.memory.settings import MemoryMechanics


class Introspection(BaseModel):
    """What one introspection found."""

    agent_id: str
    gaps_added: list[str] = Field(description="capability gaps new to the knowledge gaps")
    gaps_resolved: list[str] = Field(
        default_factory=list,
        description="capability gaps an earlier introspection added, removed as the capability "
        "is no longer weak",
    )
    suggested_goals: list[str]
    judged: int = Field(description="capabilities with enough outcomes to judge")
    at: datetime


class Findings(BaseModel):
    """The pure part: gaps and goals from the capabilities' numbers."""

    gaps: list[str]
    # The gaps of the judged capabilities that are not weak (removed if present).
    cleared: list[str] = Field(default_factory=list)
    goals: list[str]
    judged: int


def _name(domain: str) -> str:
    return domain.replace("_", " ")


def _gap(capability: Capability) -> str:
    return f"{_name(capability.domain)} (my outcomes there mostly fall short)"


def findings(capabilities: list[Capability], mechanics: MemoryMechanics) -> Findings:
    """Gaps and goals from the capabilities' track record (pure); weakest and strongest first."""
    judged = [
        c for c in capabilities if c.experience_count >= mechanics.introspection_min_experience
    ]
    weak = sorted(
        (
            c
            for c in judged
            if c.success_rate < mechanics.introspection_weak_success_rate
            or c.proficiency < mechanics.introspection_weak_proficiency
        ),
        key=lambda c: (c.success_rate, c.proficiency, c.domain),
    )
    strong = sorted(
        (
            c
            for c in judged
            if c.proficiency >= mechanics.introspection_strong_proficiency
            and c.success_rate >= mechanics.introspection_strong_success_rate
        ),
        key=lambda c: (-c.proficiency, c.domain),
    )
    gaps = [_gap(c) for c in weak]
    cleared = [_gap(c) for c in judged if c not in weak]
    goals = [
        f"Improve {_name(c.domain)}: {c.success_rate:.0%} success over {c.experience_count} "
        f"tasks (proficiency {c.proficiency:.2f}); ask for guidance before acting there and "
        "review the failed episodes with a person."
        for c in weak
    ]
    goals += [
        f"Take on more {_name(c.domain)} with less supervision: {c.success_rate:.0%} success "
        f"over {c.experience_count} tasks (proficiency {c.proficiency:.2f})."
        for c in strong
    ]
    return Findings(gaps=gaps, cleared=cleared, goals=goals, judged=len(judged))


async def introspect(
    graph: GraphClient,
    agent_id: str,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Introspection:
    """Judges the agent's capabilities and records the gaps and goals, under its lock.

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now or graph.clock.now())

    async def work(tx: Transaction) -> Introspection:
        await lock_agent(tx, agent_id)
        rows = await tx.run("memory/self_model/get_self", agent_id=agent_id, self_domain="self")
        if not rows:
            raise AgentNotFound(agent_id)
        capabilities = [Capability.model_validate(c) for c in rows[0]["capabilities"]]
        found = findings(capabilities, mechanics)
        current: list[str] = rows[0]["knowledge_gaps"] or []
        cleared = {" ".join(gap.split()).casefold() for gap in found.cleared}
        resolved = [gap for gap in current if gap.casefold() in cleared]
        kept = [gap for gap in current if gap.casefold() not in cleared]
        merged = merged_gaps(kept, found.gaps, mechanics.max_knowledge_gaps)
        known = {gap.casefold() for gap in current}
        await tx.run(
            "memory/self_model/set_introspection",
            agent_id=agent_id,
            gaps=merged,
            goals=found.goals,
            now=at,
        )
        return Introspection(
            agent_id=agent_id,
            gaps_added=[gap for gap in found.gaps if gap.casefold() not in known],
            gaps_resolved=resolved,
            suggested_goals=found.goals,
            judged=found.judged,
            at=at,
        )

    return await graph.write_transaction(work, action="introspecting")
