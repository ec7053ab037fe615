"""The agent's view of itself (docs/memory.md §6).

* **Identity** — the Agent's name, identity goal and terminal creed. The terminal creed is fixed
  when the agent is created: no function here (or anywhere) changes it afterwards, and an edit
  that tries to raises :class:`~app.errors.CreedImmutable` (409). Name and identity goal may be
  edited.
* **Capabilities** — ``(:Agent)-[:HAS_CAPABILITY]->(:Capability)``, one per domain. An outcome
  updates the success rate as an EMA (α = 0.1, prior 0.5 before the first outcome) and the
  proficiency by +0.05·complexity on success, −0.02·complexity on failure, clamped to [0, 1];
  complexity is in [0, 1].
* **Knowledge gaps** — a list of short texts on the Agent (``knowledge_gaps``). They are read
  whole with the self view and never linked or searched, so a node per gap would add structure
  nothing uses; de-duplicated case-insensitively, at most ``max_knowledge_gaps`` (the oldest go).
* **Self-beliefs** — the agent's active beliefs with domain ``self``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from app.common import Category, StrictModel, Unit, not_null, utc_now
from app.errors import AgentNotFound, CreedImmutable
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.memory.settings import MemoryMechanics

Domain = Annotated[str, Field(min_length=1, max_length=120)]
GapText = Annotated[str, Field(min_length=1, max_length=2000)]
SELF_DOMAIN = "self"


class Identity(BaseModel):
    id: str
    name: str
    identity_goal: str | None = None
    terminal_creed: list[str]
    birth_source: str | None = None
    created_at: datetime | None = None


class IdentityUpdate(StrictModel):
    """Edits the name or the identity goal. ``terminal_creed`` is accepted only to refuse a change
    with a clear error (409); the same creed again changes nothing."""

    name: Annotated[str | None, Field(min_length=1, max_length=200)] = None
    identity_goal: Annotated[str | None, Field(min_length=1, max_length=2000)] = None
    terminal_creed: list[Annotated[str, Field(max_length=2000)]] | None = None

    _check = field_validator("name", "identity_goal")(not_null)


class CapabilitySeed(StrictModel):
    domain: Domain
    proficiency: Unit = 0.3


class Capability(BaseModel):
    id: str
    domain: str
    proficiency: float
    experience_count: int
    success_rate: float
    last_refined: datetime | None = None


class CapabilityState(BaseModel):
    """The numbers an outcome changes (pure)."""

    proficiency: float
    success_rate: float
    experience_count: int


class CapabilityOutcome(StrictModel):
    domain: Domain
    success: bool
    complexity: Unit = 0.5


class SelfBelief(BaseModel):
    id: str
    statement: str
    category: Category
    strength: float
    tension: float
    importance: float
    is_immutable: bool = False


class SelfView(BaseModel):
    identity: Identity
    capabilities: list[Capability]
    knowledge_gaps: list[str]
    self_beliefs: list[SelfBelief]
    suggested_goals: list[str] = Field(
        default_factory=list,
        description="what the last introspection suggests the agent work on (app/memory/"
        "introspection.py), from its capabilities' track record",
    )
    last_introspection_at: datetime | None = None


def capability_after(
    state: CapabilityState, success: bool, complexity: float, mechanics: MemoryMechanics
) -> CapabilityState:
    """One outcome applied: success-rate EMA, proficiency step by complexity, both in [0, 1]."""
    signal = 1.0 if success else 0.0
    alpha = mechanics.capability_success_alpha
    step = mechanics.capability_gain if success else -mechanics.capability_loss
    return CapabilityState(
        proficiency=min(1.0, max(0.0, state.proficiency + step * complexity)),
        success_rate=min(1.0, max(0.0, (1 - alpha) * state.success_rate + alpha * signal)),
        experience_count=state.experience_count + 1,
    )


def merged_gaps(current: list[str], added: list[str], limit: int) -> list[str]:
    """``current`` plus the new ``added`` texts (case-insensitive de-duplication), the newest
    ``limit`` kept."""
    seen = {gap.casefold() for gap in current}
    merged = list(current)
    for gap in (" ".join(text.split()) for text in added):
        if gap and gap.casefold() not in seen:
            seen.add(gap.casefold())
            merged.append(gap)
    return merged[-limit:]


async def get_self(graph: GraphClient, agent_id: str) -> SelfView:
    """Identity, capabilities, knowledge gaps and self-beliefs of the agent, in one read.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "memory/self_model/get_self", agent_id=agent_id, self_domain=SELF_DOMAIN
    )
    if not rows:
        raise AgentNotFound(agent_id)
    row = rows[0]
    identity = row["identity"]
    return SelfView(
        identity=Identity.model_validate(
            {**identity, "terminal_creed": identity.get("terminal_creed") or []}
        ),
        capabilities=[Capability.model_validate(c) for c in row["capabilities"]],
        knowledge_gaps=row["knowledge_gaps"] or [],
        self_beliefs=[SelfBelief.model_validate(b) for b in row["self_beliefs"]],
        suggested_goals=row["suggested_goals"] or [],
        last_introspection_at=row["last_introspection_at"],
    )


async def update_identity(graph: GraphClient, agent_id: str, changes: IdentityUpdate) -> SelfView:
    """Edits the agent's name or identity goal; the terminal creed never changes.

    Raises:
        AgentNotFound: no such agent.
        CreedImmutable: ``changes.terminal_creed`` differs from the creed (nothing is written).
    """

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        rows = await tx.run("memory/self_model/get_identity", agent_id=agent_id)
        creed = rows[0]["identity"].get("terminal_creed") or []
        if changes.terminal_creed is not None and changes.terminal_creed != creed:
            raise CreedImmutable(agent_id)
        await tx.run(
            "memory/self_model/update_identity",
            agent_id=agent_id,
            changes={"name": changes.name, "identity_goal": changes.identity_goal},
        )

    await graph.write_transaction(work, action="updating the agent's identity")
    return await get_self(graph, agent_id)


async def add_capabilities(
    graph: GraphClient,
    agent_id: str,
    capabilities: list[CapabilitySeed],
    *,
    mechanics: MemoryMechanics | None = None,
) -> list[Capability]:
    """Gives the agent capabilities (e.g. from ``seeds/self.yaml``); a domain it already has is
    left as it is (idempotent, learned numbers kept).

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()
    params = [{"domain": c.domain, "proficiency": c.proficiency} for c in capabilities]

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await tx.run(
            "memory/self_model/add_capabilities",
            agent_id=agent_id,
            capabilities=params,
            success_rate=mechanics.capability_initial_success_rate,
        )

    await graph.write_transaction(work, action="adding capabilities")
    return (await get_self(graph, agent_id)).capabilities


async def record_capability_outcome(
    graph: GraphClient,
    agent_id: str,
    outcome: CapabilityOutcome,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Capability:
    """Applies one outcome in a domain (see :func:`capability_after`); a domain the agent has no
    capability in yet starts at the initial proficiency and success-rate prior. ``now`` (the
    capability's last_refined) defaults to the graph client's clock.

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now or graph.clock.now())

    async def work(tx: Transaction) -> Capability:
        await lock_agent(tx, agent_id)
        return await record_capability_outcome_in(tx, agent_id, outcome, mechanics, at)

    return await graph.write_transaction(work, action="recording a capability outcome")


async def record_capability_outcome_in(
    tx: Transaction,
    agent_id: str,
    outcome: CapabilityOutcome,
    mechanics: MemoryMechanics,
    now: datetime,
) -> Capability:
    """``record_capability_outcome`` inside the caller's transaction (holding the agent lock),
    in one query (:func:`capability_after`'s formulas in Cypher)."""
    rows = await tx.run(
        "memory/self_model/apply_capability_outcome",
        agent_id=agent_id,
        domain=outcome.domain,
        now=now,
        success=outcome.success,
        complexity=float(outcome.complexity),
        defaults={
            "proficiency": mechanics.capability_initial_proficiency,
            "success_rate": mechanics.capability_initial_success_rate,
        },
        m={
            "alpha": mechanics.capability_success_alpha,
            "gain": mechanics.capability_gain,
            "loss": mechanics.capability_loss,
        },
    )
    return Capability.model_validate(rows[0]["capability"])


async def add_knowledge_gaps(
    graph: GraphClient,
    agent_id: str,
    gaps: list[str],
    *,
    mechanics: MemoryMechanics | None = None,
) -> list[str]:
    """Adds knowledge gaps (see :func:`merged_gaps`) and returns the whole list.

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()

    async def work(tx: Transaction) -> list[str]:
        await lock_agent(tx, agent_id)
        rows = await tx.run("memory/self_model/get_identity", agent_id=agent_id)
        current = rows[0]["identity"].get("knowledge_gaps") or []
        merged = merged_gaps(current, gaps, mechanics.max_knowledge_gaps)
        await tx.run("memory/self_model/set_knowledge_gaps", agent_id=agent_id, gaps=merged)
        return merged

    return await graph.write_transaction(work, action="adding knowledge gaps")


async def resolve_knowledge_gap(graph: GraphClient, agent_id: str, gap: str) -> list[str]:
    """Removes a knowledge gap (matched case-insensitively) and returns the remaining list.

    Raises:
        AgentNotFound: no such agent.
    """

    async def work(tx: Transaction) -> list[str]:
        await lock_agent(tx, agent_id)
        rows = await tx.run("memory/self_model/get_identity", agent_id=agent_id)
        current: list[str] = rows[0]["identity"].get("knowledge_gaps") or []
        target = " ".join(gap.split()).casefold()
        remaining = [g for g in current if g.casefold() != target]
        if remaining != current:
            await tx.run("memory/self_model/set_knowledge_gaps", agent_id=agent_id, gaps=remaining)
        return remaining

    return await graph.write_transaction(work, action="resolving a knowledge gap")
