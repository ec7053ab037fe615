"""Outcome and evidence updates, each with its cascade, in one transaction per request."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from app.beliefs import formulas
from app.beliefs.cascade import cascade_from
from app.beliefs.contexts import context_chain, context_parents
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import (
    EvidenceForBelief,
    EvidenceOutcome,
    EvidenceResult,
    OutcomeIn,
    OutcomeResult,
    RevisionOutcome,
    StrengthMove,
    TensionMove,
)
from app.beliefs.propagation import propagated_moves
from app.beliefs.revision import revise_tense
from app.errors import BeliefInactive, BeliefNotFound, NotFound, PersonNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.reasoning.protocol import Reasoner


async def apply_outcome(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, belief_id: str, outcome: OutcomeIn
) -> OutcomeResult:
    """Applies an outcome with moral asymmetry, then cascades, atomically.

    Raises:
        AgentNotFound, BeliefNotFound.
    """

    async def work(tx: Transaction) -> OutcomeResult:
        await lock_agent(tx, agent_id)
        return await apply_outcome_in(tx, mechanics, agent_id, belief_id, outcome)

    return await graph.write_transaction(work, action="applying an outcome")


async def apply_outcome_in(
    tx: Transaction, mechanics: Mechanics, agent_id: str, belief_id: str, outcome: OutcomeIn
) -> OutcomeResult:
    """``apply_outcome`` inside the caller's transaction (which holds the agent lock)."""
    params = {
        **outcome.model_dump(),
        "valence": outcome.moral_valence,
        "context_parents": context_parents(outcome.context) if outcome.context else [],
    }
    rows = await tx.run(
        "beliefs/updates/apply_outcome",
        agent_id=agent_id,
        belief_id=belief_id,
        m=mechanics.as_params(),
        outcome=params,
        context_chain=context_chain(outcome.context),
    )
    if not rows:
        raise BeliefNotFound(belief_id, agent_id)
    row = rows[0]
    if not row["active"]:
        raise BeliefInactive(belief_id)
    moves = (
        await cascade_from(tx, mechanics, agent_id, [belief_id], f"outcome on {belief_id}")
        if row["default_changed"]
        else []
    )
    return OutcomeResult(
        belief_id=belief_id,
        context=outcome.context,
        old_strength=row["old_strength"],
        new_strength=row["new_strength"],
        multiplier=row["multiplier"],
        is_distrusted=row["is_distrusted"],
        is_invalidated=row["is_invalidated"],
        cascade=moves,
    )


@dataclass(frozen=True, slots=True)
class AppliedEvidence:
    results: list[EvidenceResult]
    propagated: list[TensionMove]
    cascade: list[StrengthMove]

    def touched_ids(self) -> list[str]:
        """Beliefs whose tension moved (directly or by propagation), first-touched first."""
        seen: dict[str, None] = {}
        for result in self.results:
            if result.new_tension != result.old_tension:
                seen.setdefault(result.belief_id)
        for move in self.propagated:
            seen.setdefault(move.id)
        return list(seen)


def _per_item(
    items: list[dict[str, Any]], beliefs: dict[str, dict[str, Any]], mechanics: Mechanics
) -> list[EvidenceResult]:
    """Each piece's own before/after, replaying the batch piece by piece with the reference
    formulas from each belief's state before the batch (the batch query itself works per
    belief). Distrusted beliefs (whose strength did not move) gain nothing."""
    state = {
        belief_id: (row["old_strength"], row["old_tension"]) for belief_id, row in beliefs.items()
    }
    frozen = {
        belief_id
        for belief_id, row in beliefs.items()
        if row["new_strength"] == row["old_strength"]
    }
    results: list[EvidenceResult] = []
    for item in items:
        strength, tension = state[item["belief_id"]]
        new_strength, new_tension = strength, tension
        if item["stance"] == "reinforcing" and item["belief_id"] not in frozen:
            new_strength = formulas.reinforce(strength, item["weight"], mechanics)
        elif item["stance"] == "contradicting":
            new_tension = formulas.add_tension(
                tension, formulas.tension_delta(item["weight"], mechanics)
            )
        state[item["belief_id"]] = (new_strength, new_tension)
        results.append(
            EvidenceResult(
                evidence_id=item["evidence_id"],
                belief_id=item["belief_id"],
                stance=item["stance"],
                old_strength=strength,
                new_strength=new_strength,
                old_tension=tension,
                new_tension=new_tension,
            )
        )
    return results


async def _weigh_by_source(
    tx: Transaction,
    agent_id: str,
    items: list[EvidenceForBelief],
    params: list[dict[str, Any]],
) -> None:
    """Evidence from a named person weighs confidence × that person's relationship value ×
    their trust factor (:func:`formulas.trust_factor`, docs/beliefs.md §4); ``source_weight``
    only applies when no person is named.

    Raises:
        PersonNotFound: a named person is not one of the agent's people.
    """
    person_ids = sorted({i.source_person_id for i in items if i.source_person_id is not None})
    if not person_ids:
        return
    rows = await tx.run(
        "beliefs/updates/relationship_values", agent_id=agent_id, person_ids=person_ids
    )
    values = {
        row["id"]: float(row["relationship_value"]) * formulas.trust_factor(float(row["trust"]))
        for row in rows
    }
    for item, param in zip(items, params, strict=True):
        if item.source_person_id is None:
            continue
        if item.source_person_id not in values:
            raise PersonNotFound(item.source_person_id, agent_id)
        param["weight"] = min(1.0, item.confidence * values[item.source_person_id])


async def _require_episodes(tx: Transaction, agent_id: str, items: list[EvidenceForBelief]) -> None:
    """Evidence that names the episode it came from must name one of the agent's.

    Raises:
        NotFound: the first episode id that is not one of the agent's (code ``not_found``).
    """
    episode_ids = sorted({i.episode_id for i in items if i.episode_id is not None})
    if not episode_ids:
        return
    rows = await tx.run(
        "beliefs/updates/existing_episodes", agent_id=agent_id, episode_ids=episode_ids
    )
    found = {row["id"] for row in rows}
    missing = next((i.episode_id for i in items if i.episode_id not in found | {None}), None)
    if missing is not None:
        raise NotFound(
            f"episode {missing!r} does not exist in agent {agent_id!r}",
            episode_id=missing,
            agent_id=agent_id,
        )


async def apply_evidence(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, items: list[EvidenceForBelief]
) -> AppliedEvidence:
    """Applies many pieces of evidence in one transaction (one statement), then cascades once.

    Every belief named must exist and be active, or nothing is written.

    Raises:
        AgentNotFound, BeliefNotFound (the first unknown id), BeliefInactive, PersonNotFound,
        NotFound (an episode the evidence names is not the agent's).
    """

    async def work(tx: Transaction) -> AppliedEvidence:
        await lock_agent(tx, agent_id)
        return await apply_evidence_in(tx, mechanics, agent_id, items)

    return await graph.write_transaction(work, action="applying evidence")


async def apply_evidence_in(
    tx: Transaction, mechanics: Mechanics, agent_id: str, items: list[EvidenceForBelief]
) -> AppliedEvidence:
    """``apply_evidence`` inside the caller's transaction (which holds the agent lock).

    The result is the one of applying the pieces one at a time, in the order given, each with
    its cascade: pieces run together, one statement per round, and a piece on a belief that an
    earlier piece of the round reinforced would re-derive (it lies above along SUPPORTS) starts
    the next round, after that round's cascade. A batch without such a pair is one round."""
    params: list[dict[str, Any]] = [
        {
            "evidence_id": str(uuid.uuid4()),
            "belief_id": item.belief_id,
            "text": item.text,
            "kind": item.kind,
            "stance": item.stance,
            "weight": item.weight,
            "source_person_id": item.source_person_id,
            "episode_id": item.episode_id,
        }
        for item in items
    ]
    await _require_episodes(tx, agent_id, items)
    await _weigh_by_source(tx, agent_id, items, params)
    applied = AppliedEvidence(results=[], propagated=[], cascade=[])
    for round_params in await _rounds(tx, agent_id, params):
        done = await _apply_round(tx, mechanics, agent_id, round_params)
        applied.results.extend(done.results)
        applied.propagated.extend(done.propagated)
        applied.cascade.extend(done.cascade)
    return applied


async def _rounds(
    tx: Transaction, agent_id: str, params: list[dict[str, Any]]
) -> list[list[dict[str, Any]]]:
    """The batch cut where a piece is on a belief above one an earlier piece of its round
    reinforced (so that piece sees that reinforcement's cascade, as one at a time would)."""
    sources = sorted({p["belief_id"] for p in params if p["stance"] == "reinforcing"})
    ids = sorted({p["belief_id"] for p in params})
    if not sources or len(ids) < 2:
        return [params]
    rows = await tx.run(
        "beliefs/updates/find_beliefs_above", agent_id=agent_id, source_ids=sources, ids=ids
    )
    above = {row["id"]: set(row["above"]) for row in rows}
    rounds: list[list[dict[str, Any]]] = [[]]
    raised: set[str] = set()  # beliefs the round's reinforcements so far would re-derive
    for piece in params:
        if piece["belief_id"] in raised:
            rounds.append([])
            raised = set()
        rounds[-1].append(piece)
        if piece["stance"] == "reinforcing":
            raised |= above.get(piece["belief_id"], set())
    return rounds


async def _apply_round(
    tx: Transaction, mechanics: Mechanics, agent_id: str, params: list[dict[str, Any]]
) -> AppliedEvidence:
    """One round of a batch: one statement, then the cascade above what it reinforced."""
    row = (
        await tx.run(
            "beliefs/updates/apply_evidence",
            agent_id=agent_id,
            m=mechanics.as_params(),
            items=[{**piece, "position": i} for i, piece in enumerate(params)],
        )
    )[0]
    columns = ("active", "old_strength", "new_strength", "old_tension", "new_tension")
    beliefs = {
        belief_id: dict(zip(columns, values, strict=True))
        for belief_id, *values in zip(row["ids"], *(row[c] for c in columns), strict=True)
    }
    missing = next((p["belief_id"] for p in params if p["belief_id"] not in beliefs), None)
    if missing is not None:
        raise BeliefNotFound(missing, agent_id)
    inactive = next((p["belief_id"] for p in params if not beliefs[p["belief_id"]]["active"]), None)
    if inactive is not None:
        raise BeliefInactive(inactive)
    # Same "moved" rule as the events and the reference cascade: a change of at most 1e-12
    # is no change (else a vanishing reinforcement re-derives what it supports).
    reinforced = [
        belief_id
        for belief_id, b in beliefs.items()
        if abs(b["new_strength"] - b["old_strength"]) > 1e-12
    ]
    propagated = propagated_moves(row)
    moves = await cascade_from(tx, mechanics, agent_id, reinforced, "reinforcing evidence")
    return AppliedEvidence(
        results=_per_item(params, beliefs, mechanics),
        propagated=propagated,
        cascade=moves,
    )


async def record_evidence(
    graph: GraphClient,
    mechanics: Mechanics,
    reasoner: Reasoner,
    agent_id: str,
    items: list[EvidenceForBelief],
) -> EvidenceOutcome:
    """Applies evidence, then revises every touched belief that reached the threshold.

    The evidence commits first (it happened); each revision is then atomic on its own.
    """
    applied = await apply_evidence(graph, mechanics, agent_id, items)
    touched = applied.touched_ids()
    revision = (
        await revise_tense(graph, mechanics, reasoner, agent_id, touched)
        if touched
        else RevisionOutcome()
    )
    return EvidenceOutcome(
        results=applied.results,
        propagated=applied.propagated,
        cascade=applied.cascade,
        revision=revision,
    )
