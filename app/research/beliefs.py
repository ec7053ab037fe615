"""A decided hypothesis enters the agent's beliefs through the belief services, never around
them: a confirmed one becomes a new learned belief (or reinforces the belief it repeats, by the
same duplicate rule as beliefs learned in conversation) with its supporting passages as
reinforcing evidence; a refuted one adds its contradicting passages as contradicting evidence to
the belief it repeats (tension, propagation and, after the step, revision as usual).

A passage counts once per belief: one already applied to it (the same source passage, or the
same text once case and spacing are set aside) is not applied again, by a later investigation
or twice in one (it is counted as ``already_counted`` on the step). The evidence written records
where it came from (the investigation, the hypothesis, the passage's source, title and origin)
and a belief created by research has a ``research`` creation event.

Planning reads (context retrieval, similarity) before the synthesize step's transaction;
:func:`write_in` applies the plan inside it, so the report and the belief changes commit together.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from app.beliefs.models import BeliefCreate, EvidenceForBelief
from app.beliefs.revision import revise_tense
from app.beliefs.store import belief_params, create_belief_in
from app.beliefs.updates import apply_evidence_in
from app.embeddings.store import embed_pending
from app.errors import GraphError
from app.graph.agent_scope import lock_agent
from app.graph.client import Transaction
from app.loop.learning import against_known
from app.reasoning.protocol import BeliefBrief, LearnedClaim
from app.research.assessment import counted_evidence
from app.research.models import BeliefEffect, ResearchEvidence, ResearchState
from app.research.services import ResearchServices
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest

# Statement and evidence text fit the belief model's limit.
_TEXT_LIMIT = 2000


# The event kind of a belief's creation by an investigation (docs/graph-model.md).
RESEARCH_EVENT_KIND = "research"


@dataclass(slots=True)
class CountedPassage:
    """A passage to apply as evidence on a belief, with where it came from."""

    evidence: EvidenceForBelief
    passage_key: str  # "<source kind>:<ref>": the passage itself
    provenance: dict[str, str | None] = field(default_factory=dict)

    def marks(self) -> set[str]:
        """What makes it the same passage as one already counted: its key or its text."""
        return {f"passage:{self.passage_key}", f"text:{normalised_text(self.evidence.text)}"}


@dataclass(slots=True)
class BeliefChange:
    """What one decided hypothesis does to one belief."""

    hypothesis_id: str
    effect: BeliefEffect
    belief_id: str
    statement: str
    passages: list[CountedPassage] = field(default_factory=list)
    already_counted: int = 0

    @property
    def evidence(self) -> list[EvidenceForBelief]:
        return [passage.evidence for passage in self.passages]


def normalised_text(text: str) -> str:
    """The text as compared for "the same passage": case and runs of spacing set aside."""
    return " ".join(text.split()).casefold()


async def _counted_marks(
    read: Callable[..., Awaitable[list[dict[str, Any]]]], agent_id: str, belief_ids: list[str]
) -> dict[str, set[str]]:
    """belief id -> the marks of the evidence already on it (see :meth:`CountedPassage.marks`)."""
    if not belief_ids:
        return {}
    rows = await read(
        "research/beliefs/list_counted_passages", agent_id=agent_id, belief_ids=belief_ids
    )
    return {
        row["belief_id"]: {f"text:{normalised_text(text)}" for text in row["texts"]}
        | {f"passage:{key}" for key in row["passage_keys"]}
        for row in rows
    }


def drop_counted(changes: list[BeliefChange], counted: dict[str, set[str]]) -> None:
    """Leaves out of ``changes`` the passages already counted on their belief (in ``counted``)
    or earlier in ``changes``, counting them in ``already_counted``."""
    for change in changes:
        seen = counted.setdefault(change.belief_id, set())
        kept: list[CountedPassage] = []
        for passage in change.passages:
            marks = passage.marks()
            if marks & seen:
                change.already_counted += 1
                continue
            seen |= marks
            kept.append(passage)
        change.passages = kept


async def _known_beliefs(
    services: ResearchServices, agent_id: str, statement: str
) -> list[BeliefBrief]:
    """The beliefs the context retrieves for the statement (the duplicate candidates).

    Raises:
        GraphError: the belief search failed twice: deciding "no such belief" on a failed
            search would write a duplicate, so the step fails instead (and can be resumed).
    """
    request = ContextRequest(
        q=statement[:8000], k=services.loop.beliefs_per_turn, sections=["beliefs"]
    )
    section = None
    for _ in range(2):  # one retry: a failing index search has been seen to pass on a second try
        context = await build_context(
            services.graph, services.embedder, services.retrieval, agent_id, request
        )
        section = context.sections.get("beliefs")
        if section is None or section.error is None:
            break
    if section is not None and section.error is not None:
        raise GraphError(f"the belief search for a decided hypothesis failed: {section.error}")
    return [
        BeliefBrief(
            id=item["id"],
            statement=item["statement"],
            strength=float(item["strength"]),
            tension=float(item["tension"] or 0.0),
        )
        for item in (section.items if section else [])
    ]


async def plan(
    services: ResearchServices, state: ResearchState, decided: dict[str, str]
) -> list[BeliefChange]:
    """The belief changes of the hypotheses decided at synthesis.

    Args:
        decided: hypothesis id -> its final status.
    """
    agent_id = state.investigation.agent_id
    changes: list[BeliefChange] = []
    for hypothesis in state.hypotheses:
        status = decided.get(hypothesis.id)
        if status not in ("confirmed", "refuted"):
            continue
        stance = "supports" if status == "confirmed" else "contradicts"
        passages = [
            e
            for e in counted_evidence(state, hypothesis.id, services.research)
            if e.stance == stance
        ]
        known = await _known_beliefs(services, agent_id, hypothesis.statement)
        claim = LearnedClaim(statement=hypothesis.statement[:_TEXT_LIMIT], kind="novel")
        repeated = (await against_known(services.embedder, services.loop, [claim], known))[0]
        if status == "refuted" and repeated.duplicate_of is None:
            continue  # a refuted hypothesis no belief holds touches nothing
        belief_id = repeated.duplicate_of or str(uuid.uuid4())
        effect: BeliefEffect = (
            "challenged"
            if status == "refuted"
            else ("reinforced" if repeated.duplicate_of else "created")
        )
        counted = [_counted_passage(state, hypothesis.id, belief_id, status, e) for e in passages]
        changes.append(
            BeliefChange(hypothesis.id, effect, belief_id, hypothesis.statement, counted)
        )
    ids = sorted({c.belief_id for c in changes if c.effect != "created"})
    drop_counted(changes, await _counted_marks(services.graph.read, agent_id, ids))
    return changes


def _counted_passage(
    state: ResearchState, hypothesis_id: str, belief_id: str, status: str, e: ResearchEvidence
) -> CountedPassage:
    source = state.source(e.source_id)
    return CountedPassage(
        evidence=EvidenceForBelief(
            belief_id=belief_id,
            text=source.text[:_TEXT_LIMIT],
            stance="reinforcing" if status == "confirmed" else "contradicting",
            kind="factual",
            confidence=e.confidence,
        ),
        passage_key=f"{source.kind}:{source.ref}",
        provenance={
            "investigation_id": state.investigation.id,
            "hypothesis_id": hypothesis_id,
            "source_name": source.source_name,
            "title": source.title,
            "origin": source.origin,
        },
    )


async def write_in(
    tx: Transaction, services: ResearchServices, agent_id: str, changes: list[BeliefChange]
) -> list[str]:
    """Applies the changes inside the caller's transaction.

    Returns:
        The beliefs whose tension moved (candidates for revision once the step commits).
    """
    if not changes:
        return []
    await lock_agent(tx, agent_id)
    # Again under the lock: an investigation that committed since the plan counted them first.
    ids = sorted({c.belief_id for c in changes if c.effect != "created"})
    drop_counted(changes, await _counted_marks(tx.run, agent_id, ids))
    touched: list[str] = []
    for change in changes:
        if change.effect == "created":
            data = BeliefCreate(
                statement=change.statement[:_TEXT_LIMIT],
                category="contextual",
                strength=services.loop.learned_strength,
                importance=0.5,
                source="learned",
            )
            await create_belief_in(
                tx,
                services.mechanics,
                agent_id,
                belief_params(data, RESEARCH_EVENT_KIND, change.belief_id),
            )
        evidence: list[dict[str, str | None]] = []
        if change.passages:
            applied = await apply_evidence_in(tx, services.mechanics, agent_id, change.evidence)
            # One belief per change: the results come in the order of the pieces given.
            evidence = [
                {"id": result.evidence_id, "passage_key": passage.passage_key, **passage.provenance}
                for result, passage in zip(applied.results, change.passages, strict=True)
            ]
            touched += [t for t in applied.touched_ids() if t not in touched]
        await tx.run(
            "research/beliefs/link_hypothesis_belief",
            agent_id=agent_id,
            hypothesis_id=change.hypothesis_id,
            belief_id=change.belief_id,
            effect=change.effect,
            evidence=evidence,
        )
    return touched


async def after_commit(
    services: ResearchServices, agent_id: str, touched: list[str], created: bool
) -> None:
    """Revises the beliefs the evidence brought to the threshold and embeds new statements
    (each revision atomic on its own, as after any evidence)."""
    outcome = (
        await revise_tense(services.graph, services.mechanics, services.reasoner, agent_id, touched)
        if touched
        else None
    )
    if created or (outcome is not None and outcome.revisions):
        await embed_pending(services.graph, services.embedder, agent_id)
