"""Rules (docs/memory.md §5): heuristics the agent learned or was given, with a
confidence that decays while nobody validates them.

Decay (:func:`effective_confidence`, and the same formula in
``cypher/memory/rules/list_rules.cypher``): ``confidence · 0.95^(days since validation / 30)``,
applied only once more than 30 days have passed; before that the stored confidence holds. A rule
never validated counts from its creation. Validation adds one to ``validation_count`` and restarts
the clock; it does not change the stored confidence. The numbers are settings (``rule_decay_*``).

A rule is embedded (``trigger_concept: content``) when it is written, for vector retrieval; with
embeddings unavailable it is stored without one and found by fulltext only.

A pack's rule that a later version of the pack dropped is retired (``is_active`` false, never
deleted: docs/packs.md §3); it is no longer listed, retrieved, decayed or validated.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.common import StrictUnit, not_blank, utc_now
from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound, InvalidInput, RuleNotFound, RuleRetired
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Row, Transaction
from app.memory.settings import MemoryMechanics
from app.text.lexical import scored_words

RuleSource = Literal["reflection", "manual", "consolidation", "pack"]


class RuleCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    trigger_concept: Annotated[str, Field(min_length=1, max_length=200)]
    content: Annotated[str, Field(min_length=1, max_length=2000)]
    source: RuleSource = "manual"
    # A rule captured by hand starts at 0.8 (seed 003), one from reflection at what it earned.
    confidence: StrictUnit = 0.8
    # Episodes the rule was abstracted from ((:Rule)-[:DERIVED_FROM]->(:Episode)).
    derived_from: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=100
    )

    _check = field_validator("trigger_concept", "content")(not_blank)


class Rule(BaseModel):
    id: str
    agent_id: str
    trigger_concept: str
    content: str
    source: RuleSource
    confidence: float
    effective_confidence: float
    validation_count: int
    last_validated: datetime | None = None
    created_at: datetime | None = None
    has_embedding: bool
    # Set for rules loaded from a knowledge pack.
    pack_name: str | None = None
    # False once a version of its pack dropped it (docs/packs.md §3): kept for history, it is
    # no longer listed, retrieved or validated; with when and by which version.
    is_active: bool = True
    deactivated_at: datetime | None = None
    retired_in_version: int | None = None
    derived_from: list[str] = Field(default_factory=list)


class RulePage(BaseModel):
    data: list[Rule]
    count: int
    # When the embedder was asked and could not embed (only on create).
    embeddings_available: bool | None = None


def effective_confidence(
    confidence: float,
    last_validated: datetime | None,
    created_at: datetime,
    now: datetime,
    mechanics: MemoryMechanics | None = None,
) -> float:
    """The confidence after decay (rule in the module docstring); pure."""
    mechanics = mechanics or MemoryMechanics()
    since = last_validated or created_at
    days = (now - since).total_seconds() / 86400.0
    if days <= mechanics.rule_decay_grace_days:
        return confidence
    return float(confidence * mechanics.rule_decay_per_month ** (days / mechanics.rule_month_days))


def _decay_params(mechanics: MemoryMechanics) -> dict[str, float]:
    return {
        "per_month": mechanics.rule_decay_per_month,
        "grace_days": mechanics.rule_decay_grace_days,
        "month_days": mechanics.rule_month_days,
    }


def embedding_text(data: RuleCreate) -> str:
    return f"{data.trigger_concept}: {data.content}"


async def create_rule(
    graph: GraphClient,
    agent_id: str,
    data: RuleCreate,
    embedder: Embedder | None = None,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Rule:
    """Creates a rule, embedded when the embedder is available (else stored without embedding).

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: a ``derived_from`` episode does not exist for this agent (nothing written).
    """
    mechanics = mechanics or MemoryMechanics()
    at = utc_now(now or graph.clock.now())
    vectors = await embedder.embed([embedding_text(data)]) if embedder is not None else None
    params = {
        "id": str(uuid.uuid4()),
        **data.model_dump(),
        "embedding": vectors[0] if vectors else None,
        **scored_words(data.content),
    }

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "memory/rules/create_rule",
            agent_id=agent_id,
            rule=params,
            now=at,
            embedding_model=embedder.model_id if embedder is not None else None,
        )
        missing = sorted(set(data.derived_from) - set(rows[0]["linked"]))
        if missing:  # raising rolls the transaction back: nothing is written
            raise InvalidInput(
                f"derived_from names episodes this agent does not have: {', '.join(missing)}",
                errors=[
                    {
                        "location": ["body", "derived_from"],
                        "message": f"unknown episode ids: {', '.join(missing)}",
                        "type": "unknown_episode",
                    }
                ],
            )

    await graph.write_transaction(work, action="creating a rule")
    return await get_rule(graph, agent_id, str(params["id"]), mechanics=mechanics, now=at)


async def get_rule(
    graph: GraphClient,
    agent_id: str,
    rule_id: str,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Rule:
    """One rule with its effective confidence at ``now`` (a retired one too: ``is_active``).

    Raises:
        AgentNotFound: no such agent.
        RuleNotFound: no such rule for this agent.
    """
    mechanics = mechanics or MemoryMechanics()
    rows = await graph.read(
        "memory/rules/get_rule",
        agent_id=agent_id,
        rule_id=rule_id,
        now=utc_now(now or graph.clock.now()),
        decay=_decay_params(mechanics),
    )
    if not rows:
        raise AgentNotFound(agent_id)
    if rows[0]["rule"] is None:
        raise RuleNotFound(rule_id, agent_id)
    return Rule.model_validate(rows[0]["rule"])


async def list_rules(
    graph: GraphClient,
    agent_id: str,
    *,
    trigger_concept: str | None = None,
    min_effective_confidence: float | None = None,
    skip: int = 0,
    limit: int = 50,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> RulePage:
    """The agent's active rules (one a pack version retired is left out), highest effective
    confidence first.

    Raises:
        AgentNotFound: no such agent.
    """
    mechanics = mechanics or MemoryMechanics()
    rows = await graph.read(
        "memory/rules/list_rules",
        agent_id=agent_id,
        trigger_concept=trigger_concept.lower() if trigger_concept else None,
        min_effective=min_effective_confidence,
        skip=skip,
        limit=limit,
        now=utc_now(now or graph.clock.now()),
        decay=_decay_params(mechanics),
    )
    if not rows:
        raise AgentNotFound(agent_id)
    return RulePage(data=[Rule.model_validate(r) for r in rows[0]["rules"]], count=rows[0]["count"])


async def validate_rule(
    graph: GraphClient,
    agent_id: str,
    rule_id: str,
    *,
    mechanics: MemoryMechanics | None = None,
    now: datetime | None = None,
) -> Rule:
    """Records that the rule held again: ``validation_count`` + 1, ``last_validated`` = now.

    Raises:
        AgentNotFound: no such agent.
        RuleNotFound: no such rule for this agent.
        RuleRetired: a version of its pack dropped the rule (nothing written).
    """
    at = utc_now(now or graph.clock.now())

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        rows = await tx.run(
            "memory/rules/validate_rule", agent_id=agent_id, rule_id=rule_id, now=at
        )
        if not rows:
            raise RuleNotFound(rule_id, agent_id)
        if not rows[0]["is_active"]:
            raise RuleRetired(rule_id, agent_id)

    await graph.write_transaction(work, action="validating a rule")
    return await get_rule(graph, agent_id, rule_id, mechanics=mechanics, now=at)


class RuleDecay(BaseModel):
    """What a rule-decay pass recorded (:func:`record_decay`)."""

    rules: int
    decaying: int = Field(description="Rules past the grace period.")
    mean_confidence: float | None = Field(description="The mean decayed confidence.")


async def record_decay(
    graph: GraphClient, agent_id: str, now: datetime, mechanics: MemoryMechanics | None = None
) -> RuleDecay:
    """Records on each of the agent's rules its decayed confidence at ``now``
    (``decayed_confidence``, ``decayed_at``: the same formula as :func:`effective_confidence`);
    the stored confidence is unchanged, so the decay is never applied twice. Run monthly by the
    scheduler (docs/loop.md §14). Under the agent's lock, as every write to its graph.

    Raises:
        AgentNotFound: no such agent, or one being deleted.
    """

    async def work(tx: Transaction) -> list[Row]:
        await lock_agent(tx, agent_id)
        return await tx.run(
            "memory/rules/record_decay",
            agent_id=agent_id,
            now=now,
            decay=_decay_params(mechanics or MemoryMechanics()),
        )

    rows = await graph.write_transaction(work, action="recording rule decay")
    return (
        RuleDecay.model_validate(rows[0])
        if rows
        else RuleDecay(rules=0, decaying=0, mean_confidence=None)
    )
