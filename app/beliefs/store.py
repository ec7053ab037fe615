"""Belief store: create, read, list, edit and deactivate an agent's beliefs (never delete)."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from app.beliefs.cascade import cascade_from
from app.beliefs.contexts import all_context_parents, context_chain
from app.beliefs.formulas import supervision_mode
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import (
    Belief,
    BeliefCreate,
    BeliefDetail,
    BeliefPage,
    BeliefUpdate,
    ContextStrength,
    Contradiction,
    LinkedBelief,
)
from app.errors import BeliefImmutable, BeliefInactive, BeliefNotFound
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.text.lexical import scored_words


def belief_params(
    data: BeliefCreate, event_kind: str, belief_id: str | None = None
) -> dict[str, Any]:
    """The ``$belief`` map of beliefs/store/create_belief."""
    return {
        **data.model_dump(exclude={"contexts"}),
        "id": belief_id or str(uuid.uuid4()),
        "event_kind": event_kind,
        "contexts": [c.model_dump() for c in data.contexts],
        "context_parents": all_context_parents([c.name for c in data.contexts]),
        **scored_words(data.statement),
    }


async def create_belief(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, data: BeliefCreate
) -> Belief:
    """Creates one belief (and its creation event).

    Raises:
        AgentNotFound: no such agent.
    """
    params = belief_params(data, "manual")

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await create_belief_in(tx, mechanics, agent_id, params)

    await graph.write_transaction(work, action="creating a belief")
    return (await get_belief(graph, mechanics, agent_id, params["id"])).belief


async def create_belief_in(
    tx: Transaction, mechanics: Mechanics, agent_id: str, params: dict[str, Any]
) -> None:
    """Creates one belief (and its creation event) inside the caller's transaction, which holds
    the agent's lock; ``params`` is :func:`belief_params`'s map."""
    await tx.run(
        "beliefs/store/create_belief", agent_id=agent_id, belief=params, m=mechanics.as_params()
    )


async def deactivate_belief_in(
    tx: Transaction, mechanics: Mechanics, agent_id: str, belief_id: str
) -> bool:
    """Deactivates a belief inside the caller's transaction (which holds the agent's lock), then
    re-derives the beliefs it supported without it (docs/beliefs.md §6: a derived strength is
    the mean over *active* supporters), each move a ``cascade`` event; False when the agent has
    no such belief."""
    rows = await tx.run("beliefs/store/deactivate_belief", agent_id=agent_id, belief_id=belief_id)
    if rows and rows[0]["was_active"]:
        await cascade_from(tx, mechanics, agent_id, [belief_id], f"deactivation of {belief_id}")
    return bool(rows)


async def _check_editable(
    tx: Transaction, agent_id: str, belief_id: str, changes: BeliefUpdate, edits: bool
) -> None:
    """Refuses the change (raising rolls the transaction back) by the belief's state as the
    caller's transaction, holding the agent's lock, reads it."""
    rows = await tx.run("beliefs/store/get_belief_guard", agent_id=agent_id, belief_id=belief_id)
    if not rows:
        raise BeliefNotFound(belief_id, agent_id)
    if edits and not rows[0]["is_active"]:
        raise BeliefInactive(belief_id)  # deactivating it again is still a no-op
    if rows[0]["is_immutable"] and (changes.statement is not None or changes.is_active is False):
        raise BeliefImmutable(belief_id, "change its statement or deactivate it")


async def get_belief(
    graph: GraphClient,
    mechanics: Mechanics,
    agent_id: str,
    belief_id: str,
    context: str | None = None,
    history_limit: int = 50,
) -> BeliefDetail:
    """One belief with contexts, evidence, events, lineage and edges.

    Raises:
        BeliefNotFound: no such belief for this agent.
    """
    rows = await graph.read(
        "beliefs/store/get_belief",
        agent_id=agent_id,
        belief_id=belief_id,
        context_chain=context_chain(context),
    )
    if not rows:
        raise BeliefNotFound(belief_id, agent_id)
    row = rows[0]
    history = (
        await graph.read(
            "beliefs/store/get_belief_history",
            agent_id=agent_id,
            belief_id=belief_id,
            limit=history_limit,
        )
    )[0]
    belief = Belief.model_validate(row["belief"])
    in_context = float(row["strength_in_context"])
    return BeliefDetail(
        belief=belief,
        contexts=[ContextStrength.model_validate(c) for c in row["contexts"]],
        context=context,
        strength_in_context=in_context,
        supervision_mode=belief.supervision_mode or supervision_mode(in_context, mechanics),
        evidence=history["evidence"],
        events=history["events"],
        predecessors=[LinkedBelief.model_validate(b) for b in history["predecessors"]],
        successors=[LinkedBelief.model_validate(b) for b in history["successors"]],
        supports=[LinkedBelief.model_validate(b) for b in history["supports"]],
        supported_by=[LinkedBelief.model_validate(b) for b in history["supported_by"]],
        contradictions=[Contradiction.model_validate(c) for c in history["contradictions"]],
    )


async def list_beliefs(
    graph: GraphClient,
    agent_id: str,
    *,
    category: str | None = None,
    active: bool | None = True,
    min_tension: float | None = None,
    text: str | None = None,
    invalidated: bool | None = None,
    sort: Literal["newest", "tension"] = "newest",
    skip: int = 0,
    limit: int = 50,
) -> BeliefPage:
    """A page of an agent's beliefs matching the filters, newest first; ``invalidated=True``
    lists the beliefs that need attention (below their category's threshold, seed 000)."""
    rows = await graph.read(
        "beliefs/store/list_beliefs",
        agent_id=agent_id,
        category=category,
        active=active,
        min_tension=min_tension,
        text=text,
        invalidated=invalidated,
        sort=sort,
        skip=skip,
        limit=limit,
    )
    if not rows[0]["count"]:
        await require_agent(graph, agent_id)  # an unknown agent is a 404, not an empty page
    return BeliefPage(
        data=[Belief.model_validate(b) for b in rows[0]["beliefs"]], count=rows[0]["count"]
    )


async def update_belief(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, belief_id: str, changes: BeliefUpdate
) -> Belief:
    """Edits statement/importance, deactivates, or sets the supervision mode (an event records it).

    The belief is checked inside the writing transaction, after the agent's lock: a belief
    another writer deactivates or supersedes (they take the same lock) is never edited.

    Raises:
        AgentNotFound: no such agent.
        BeliefNotFound: no such belief.
        BeliefImmutable: the statement of a creed belief cannot change, nor can it be deactivated.
        BeliefInactive: an edit of an inactive belief (deactivated or superseded).
    """
    edits = any(
        value is not None
        for value in (changes.statement, changes.importance, changes.supervision_mode)
    )
    params = {
        "statement": changes.statement,
        **(scored_words(changes.statement) if changes.statement is not None else {}),
        "importance": changes.importance,
        "supervision_mode": (
            None if changes.supervision_mode == "derived" else changes.supervision_mode
        ),
        "clear_supervision_mode": changes.supervision_mode == "derived",
    }

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await _check_editable(tx, agent_id, belief_id, changes, edits)
        # The query refuses an inactive belief itself (no row): never edited, whoever calls.
        if edits and not await tx.run(
            "beliefs/store/update_belief", agent_id=agent_id, belief_id=belief_id, changes=params
        ):
            raise BeliefInactive(belief_id)
        if changes.is_active is False and not await deactivate_belief_in(
            tx, mechanics, agent_id, belief_id
        ):
            raise BeliefNotFound(belief_id, agent_id)

    await graph.write_transaction(work, action="updating a belief")
    return (await get_belief(graph, mechanics, agent_id, belief_id, history_limit=0)).belief
