"""Learning new beliefs in conversation (seed 000: what the agent is taught becomes a belief at
0.5, "appropriately uncertain", until outcomes confirm it).

Three kinds of claim become a ``Belief`` (source ``learned``): **guidance** (a person's answer to
a guidance question, or "always … / from now on …" in a turn), a **correction** of a belief by a
person with enough authority, and a **novel** fact the reasoner accepts. A claim that repeats a
belief already held (cosine ≥ ``duplicate_similarity`` to one of the beliefs the turn
retrieved; token overlap without embeddings) reinforces that belief instead. Planning happens
before the turn's transaction (it reads and embeds); :func:`learn_in` writes inside it: the
belief with its creation event, ``LEARNED_FROM`` the episode and the person, ``ABOUT`` from the
episode, a ``CONTRADICTS`` edge (open) to each belief it contradicts, and a ``SUPPORTS`` edge
to each belief it backs that is already derived from supporters (the cascade re-derives it).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from app.beliefs.cascade import cascade_from
from app.beliefs.edges import create_supports_in, upsert_contradicts_in
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate
from app.beliefs.store import belief_params, create_belief_in
from app.common import Category
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient, Transaction
from app.loop.activation import relevance_scores
from app.loop.models import LearnedBelief
from app.loop.settings import LoopConfig, LoopSettings
from app.reasoning.protocol import BeliefBrief, EvidenceItem, LearnedClaim, PersonBrief
from app.retrieval.context import build_context
from app.retrieval.models import ContextRequest
from app.text.claims import MAX_STATEMENT_CHARS, clip_statement
from app.text.words import token_similarity


@dataclass(frozen=True, slots=True)
class NewBelief:
    """A claim the turn learns: a new belief, or a reinforcement of the one it repeats."""

    statement: str
    kind: str
    contradicts: list[str] = field(default_factory=list)
    supports: list[str] = field(default_factory=list)
    # The belief it repeats (reinforced instead of creating a new one), and how close it is.
    duplicate_of: str | None = None
    similarity: float = 0.0


def accepted(
    claims: list[LearnedClaim], speaker: PersonBrief | None, loop: LoopSettings
) -> list[LearnedClaim]:
    """The learned claims the turn keeps: guidance always, a correction only from a person
    with at least ``correction_authority`` or ``correction_trust``, a novel fact when
    ``learn_novel_claims``."""
    kept: list[LearnedClaim] = []
    for claim in claims:
        if claim.kind == "correction" and not may_correct(speaker, loop):
            continue
        if claim.kind == "novel" and not loop.learn_novel_claims:
            continue
        if all(claim.statement != other.statement for other in kept):
            kept.append(claim)
    return kept[: loop.learned_per_turn]


def may_correct(speaker: PersonBrief | None, loop: LoopSettings) -> bool:
    """Whether a correction from ``speaker`` is learned: enough authority, or enough trust."""
    if speaker is None:
        return False
    return speaker.authority >= loop.correction_authority or speaker.trust >= loop.correction_trust


async def against_known(
    embedder: Embedder,
    loop: LoopSettings,
    claims: list[LearnedClaim],
    beliefs: list[BeliefBrief],
) -> list[NewBelief]:
    """Each claim as a new belief, or as the belief it repeats (the most similar known belief
    at or above the duplicate floor)."""
    planned: list[NewBelief] = []
    items = [{"statement": belief.statement} for belief in beliefs]
    for claim in claims:
        duplicate, best = None, 0.0
        if beliefs:
            scores, cosine = await relevance_scores(
                embedder, claim.statement, items, "passage", loop.relevance_embedding_model
            )
            if not cosine:
                scores = [token_similarity(claim.statement, b.statement) for b in beliefs]
            floor = loop.duplicate_similarity if cosine else loop.duplicate_similarity_tokens
            best_index = max(range(len(beliefs)), key=lambda i: scores[i])
            best = scores[best_index]
            if best >= floor:
                duplicate = beliefs[best_index].id
        planned.append(
            NewBelief(
                statement=claim.statement,
                kind=claim.kind,
                contradicts=[bid for bid in claim.contradicts if bid != duplicate],
                supports=[bid for bid in claim.supports if bid != duplicate],
                duplicate_of=duplicate,
                similarity=round(best, 4),
            )
        )
    return planned


async def plan_guidance(
    graph: GraphClient,
    embedder: Embedder,
    settings: LoopConfig,
    agent_id: str,
    answer: str,
    asked: str,
) -> list[NewBelief]:
    """A person's answer to a guidance question as a belief: the answer, with what it answered
    (so a later turn about the same thing finds it); a repeat of a known belief reinforces it.
    The known beliefs are those the context retrieves for the new statement."""
    loop = settings.loop
    # Both cut so that a very long answer or question still makes a statement.
    question = clip_statement(asked.strip().rstrip(".?!"), MAX_STATEMENT_CHARS // 3)
    suffix = f" (Guidance for: {question}.)"
    statement = clip_statement(_sentence(answer), MAX_STATEMENT_CHARS - len(suffix)) + suffix
    context = await build_context(
        graph,
        embedder,
        settings.retrieval,
        agent_id,
        ContextRequest(q=statement[:8000], k=loop.beliefs_per_turn, sections=["beliefs"]),
    )
    section = context.sections.get("beliefs")
    beliefs = [
        BeliefBrief(
            id=item["id"],
            statement=item["statement"],
            strength=float(item["strength"]),
            tension=float(item["tension"] or 0.0),
        )
        for item in (section.items if section else [])
    ]
    claim = LearnedClaim(statement=statement, kind="guidance")
    return await against_known(embedder, loop, [claim], beliefs)


def reinforcements(planned: list[NewBelief], evidence: list[EvidenceItem]) -> list[EvidenceItem]:
    """Reinforcing evidence for the beliefs the learned claims repeat (one per belief, and none
    for a belief the turn's evidence already touches)."""
    touched = {item.belief_id for item in evidence}
    extra: list[EvidenceItem] = []
    for new in planned:
        if new.duplicate_of is None or new.duplicate_of in touched:
            continue
        touched.add(new.duplicate_of)
        extra.append(
            EvidenceItem(
                belief_id=new.duplicate_of,
                claim=new.statement,
                stance="reinforcing",
                confidence=min(1.0, max(0.0, new.similarity)),
                kind="feedback" if new.kind == "guidance" else "factual",
            )
        )
    return extra


async def learn_in(
    tx: Transaction,
    mechanics: Mechanics,
    loop: LoopSettings,
    agent_id: str,
    planned: list[NewBelief],
    source: tuple[str, str | None, str | None],
    category: Category = "contextual",
) -> list[LearnedBelief]:
    """Writes the new beliefs of a turn inside its transaction (the caller holds the agent
    lock); the repeats were applied as reinforcing evidence already.

    Args:
        source: the episode id, and the id and name of the person the claims came from.
        category: the A.C.R.E. category of the new beliefs: the turn's frame's
            ``default_category`` (docs/memory.md §3).

    Returns:
        What was learned: each new belief, and each repeat with the belief it reinforced.
    """
    episode_id, person_id, person_name = source
    learned: list[LearnedBelief] = []
    for new in planned:
        if new.duplicate_of is not None:
            learned.append(
                LearnedBelief(
                    id=new.duplicate_of,
                    statement=new.statement,
                    kind=new.kind,
                    reinforced=True,
                    similarity=new.similarity,
                )
            )
            continue
        belief_id = str(uuid.uuid4())
        data = BeliefCreate(
            statement=new.statement[:2000],
            category=category,
            strength=loop.learned_strength,
            importance=0.5,
            source="learned",
        )
        await create_belief_in(tx, mechanics, agent_id, belief_params(data, "learned", belief_id))
        await tx.run(
            "loop/learning/link_learned_belief",
            agent_id=agent_id,
            belief_id=belief_id,
            kind=new.kind,
            episode_id=episode_id,
            person_id=person_id,
            person_name=person_name,
        )
        supported = await _support(tx, mechanics, loop, agent_id, belief_id, new.supports)
        for target in new.contradicts:
            await upsert_contradicts_in(tx, agent_id, belief_id, target, kind="learned")
        learned.append(
            LearnedBelief(
                id=belief_id,
                statement=new.statement,
                kind=new.kind,
                reinforced=False,
                similarity=new.similarity,
                contradicts=new.contradicts,
                supports=supported,
            )
        )
    return learned


async def _support(
    tx: Transaction,
    mechanics: Mechanics,
    loop: LoopSettings,
    agent_id: str,
    belief_id: str,
    targets: list[str],
) -> list[str]:
    """``SUPPORTS`` edges from the new belief to the beliefs it backs that are already derived
    from supporters: it joins them (weight ``learned_support_weight``) and the cascade
    re-derives them. A belief without supporters keeps its own strength (one supporter at 0.5
    would replace it); the claim already reinforced it as evidence."""
    if not targets:
        return []
    rows = await tx.run("loop/learning/find_derived_beliefs", agent_id=agent_id, ids=targets)
    derived = [row["id"] for row in rows]
    for target in derived:
        await create_supports_in(
            tx, agent_id, belief_id, target, loop.learned_support_weight, kind="learned"
        )
    if derived:
        await cascade_from(tx, mechanics, agent_id, [belief_id], f"learned {belief_id}")
    return derived


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip(" .")
    return text[:1].upper() + text[1:] + "." if text else text
