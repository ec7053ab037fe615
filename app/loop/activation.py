"""Activate, the first phase of a turn (docs/loop.md §2): frame, dissatisfaction, working memory and
context, the relevant belief with its strength in the turn's context, and the beliefs already at
the revision threshold. Reads only."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from app.agents.store import find_agent_identity
from app.beliefs.contexts import context_strengths
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.formulas import is_invalidated
from app.beliefs.models import Dissatisfaction
from app.common import Category
from app.embeddings.bundled import Pair
from app.embeddings.embedder import Embedder, embedder_for_model
from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.guardian.check import Censors
from app.loop.models import RelevantBelief, ToolRoute
from app.loop.settings import LoopConfig, LoopSettings
from app.memory import frames
from app.memory.frames import FrameInfo
from app.memory.people.models import (
    AnswerDepth,
    DomainKnowledge,
    Mention,
    SuccessfulPattern,
)
from app.memory.people.name_index import known_names
from app.memory.people.names import name_key
from app.memory.people.user_model import answer_depth
from app.reasoning.protocol import (
    BeliefBrief,
    HistoryTurn,
    MemoryItem,
    PastDecision,
    PersonBrief,
    RecalledEpisode,
    RevisitedBelief,
    RuleBrief,
)
from app.retrieval.context import build_context
from app.retrieval.context_inputs import working_memory_items
from app.retrieval.models import Context, ContextRequest, FrameChoice, SectionName
from app.seeds.skill_schema import DomainSkill
from app.seeds.skills import stored_skill
from app.text.references import has_reference, resolve_references
from app.text.words import tokens
from app.tools.focus import ToolFocus


@dataclass(frozen=True, slots=True)
class Activation:
    """What a turn knows before it judges anything (:func:`activate`)."""

    agent: dict[str, Any]
    frame: str
    frame_name: str
    stakes: str
    questions_to_ask: list[str]
    dissatisfaction: Dissatisfaction
    context: Context
    context_name: str | None
    beliefs: list[BeliefBrief]
    relevance: dict[str, float]
    # The relevance floor in force (cosine, or token overlap without embeddings).
    floor: float
    relevant: RelevantBelief | None
    at_threshold: list[str]
    timings_ms: dict[str, float]
    # The session's earlier turns, oldest first, within the history's share of the budget.
    history: list[HistoryTurn] = field(default_factory=list)
    # What retrieval and relevance read: the message with its references to earlier turns
    # resolved ("approve it" after a turn about wire transfers: "approve wire transfers").
    query: str = ""
    message: str = ""
    # The turn's memory beyond beliefs (the same retrieval as GET /context): the rules that
    # apply (at or above the rule floor, most relevant first), the people present, related
    # earlier episodes, working memory's tasks and notes, and its temporal urgency.
    rules: list[RuleBrief] = field(default_factory=list)
    people: list[PersonBrief] = field(default_factory=list)
    episodes: list[RecalledEpisode] = field(default_factory=list)
    # The agent's past decisions related to the message (the context's decisions section).
    decisions: list[PastDecision] = field(default_factory=list)
    working_memory: list[MemoryItem] = field(default_factory=list)
    urgency_multiplier: float = 1.0
    # The people the message names (known ones with their id; new names are micro-born).
    mentions: list[Mention] = field(default_factory=list)
    # The agent's identity document (markdown) when a model reasons (its system prompt).
    identity: str | None = None
    # A turn that calls a tool (app/loop/tool_turns.py): the tool, and the belief about it.
    tool: ToolFocus | None = None
    # How the turn came to a tool (syntax or routed), also when its arguments are missing.
    tool_route: ToolRoute | None = None
    # The agent's tier-1 censors when the activation read them (a written call's turn reads
    # them in its one start read); None: the turn reads them beside the activation.
    censors: Censors | None = None
    # The A.C.R.E. category of what the turn learns: its frame's default_category (docs/memory.md
    # §3).
    learned_category: Category = "contextual"
    # Earlier answers to the speaker that rested on a belief revised since (app/loop/revisits.py).
    revisited: list[RevisitedBelief] = field(default_factory=list)
    # The turn's domain (that of the belief it rests on; None: none, or the agent's self) and
    # how deep the answer to the speaker goes (app/memory/people/user_model.answer_depth).
    domain: str | None = None
    depth: AnswerDepth = "standard"

    @property
    def skill(self) -> DomainSkill | None:
        """The domain skill the agent works under: the one its packs brought (the pack loaded
        last wins, docs/packs.md §5), read with the agent; None: the shipped accounting skill."""
        skill = self.agent.get("skill")
        return skill if isinstance(skill, DomainSkill) else None

    def recent(self, turns: int) -> list[HistoryTurn]:
        """The latest ``turns`` turns of the history, oldest first."""
        return self.history[-turns:] if turns else []


async def read_history(
    graph: GraphClient, loop: LoopSettings, agent_id: str, session: str | None
) -> list[HistoryTurn]:
    """The session's latest turns, oldest first (as many as the larger of the appraisal's and
    the answer's share); none without a session."""
    limit = max(loop.history_turns_appraisal, loop.history_turns_answer)
    if session is None or limit == 0:
        return []
    rows = await graph.read(
        "loop/activation/get_session_history", agent_id=agent_id, session=session, limit=limit
    )
    return history_of(rows)


@dataclass(frozen=True, slots=True)
class TurnPeople:
    """Who a turn reads before it knows whom the message names: every person's id and name (for
    the index of names), and the speaker's rows with the ``topics`` of their latest turns."""

    names: list[tuple[str, str]]
    speakers: list[dict[str, Any]]  # the people of the speaker's name (two may share one)


async def read_people_and_history(
    graph: GraphClient,
    settings: LoopConfig,
    agent_id: str,
    session: str | None,
    speaker: str | None = None,
) -> tuple[TurnPeople, list[HistoryTurn]]:
    """The agent's people as :class:`TurnPeople` and the session's history as
    :func:`read_history` gives it, in one read (the rows of the others the message names:
    :func:`read_people_by_ids`).

    Raises:
        AgentNotFound.
    """
    loop, memory = settings.loop, settings.memory
    limit = max(loop.history_turns_appraisal, loop.history_turns_answer) if session else 0
    rows = await graph.read(
        "loop/activation/get_turn_people_and_history",
        agent_id=agent_id,
        session=session,
        limit=limit,
        speaker_key=name_key(speaker) if speaker else None,
        topic_episodes=memory.topic_episodes,
        topics=memory.topics_shown,
    )
    if not rows:
        raise AgentNotFound(agent_id)
    row = rows[0]
    people = TurnPeople(
        names=[(str(pid), str(name)) for pid, name in row["names"]],
        speakers=[found | {"topics": row["speaker_topics"]} for found in row["speakers"]],
    )
    return people, history_of(row["history"])


async def read_people_by_ids(
    graph: GraphClient, agent_id: str, ids: Sequence[str]
) -> list[dict[str, Any]]:
    """The rows of the agent's people ``ids`` (those a message names), as the turn's people
    brief reads them; none read for no ids."""
    if not ids:
        return []
    rows = await graph.read("loop/activation/get_people_by_ids", agent_id=agent_id, ids=list(ids))
    return list(rows[0]["people"]) if rows else []


def history_of(rows: list[dict[str, Any]]) -> list[HistoryTurn]:
    """History rows (newest first) as turns, oldest first."""
    return [
        HistoryTurn(speaker=row["speaker"], message=row["message"], response=row["response"])
        for row in reversed(rows)
        if row["message"]
    ]


def bound_history(
    history: list[HistoryTurn], budget_tokens: int, share: float, chars_per_token: float
) -> list[HistoryTurn]:
    """The latest turns that fit in ``share`` of the frame's budget (the oldest go first)."""
    allowed = budget_tokens * share
    kept: list[HistoryTurn] = []
    used = 0.0
    for turn in reversed(history):
        cost = (len(turn.message) + len(turn.response or "")) / chars_per_token
        if used + cost > allowed:
            break
        kept.append(turn)
        used += cost
    return list(reversed(kept))


async def relevance_scores(
    embedder: Embedder,
    query: str,
    items: list[dict[str, Any]],
    pair: Pair = "query",
    model: str = "",
) -> tuple[list[float], bool]:
    """Cosine similarity of the query to each retrieved belief on all-MiniLM-L6-v2's scale, the
    scale of the floors, or token overlap (Jaccard) when there are no embeddings; and whether
    cosine was used. ``model``: the model the floors read (``loop.relevance_embedding_model``);
    when it is the running one (or empty), the cosines the retrieval query computed from the
    stored vectors are taken (the model runs only for a belief still without one) and mapped
    (:meth:`Embedder.reference_cosine`); otherwise that model embeds the query and the
    statements (its vectors cached). ``pair``: "query" (a message against stored texts) or
    "passage" (two statements alike)."""
    if not items:
        return [], True
    judge = embedder_for_model(embedder, model) or embedder
    scores: list[float | None] = [
        item.get("similarity") if judge is embedder else None for item in items
    ]
    embedder = judge
    missing = [i for i, score in enumerate(scores) if score is None]
    if missing:
        asked = await embedder.embed([query], pair)
        vectors = await embedder.embed([items[i]["statement"] for i in missing])
        if asked is None or vectors is None:
            query_tokens = set(tokens(query))
            overlap = []
            for item in items:
                other = set(tokens(item["statement"]))
                union = query_tokens | other
                overlap.append(len(query_tokens & other) / len(union) if union else 0.0)
            return overlap, False
        matrix = np.asarray(vectors, dtype=np.float32)
        for position, score in zip(missing, matrix @ np.asarray(asked[0]), strict=True):
            scores[position] = float(score)
    return [embedder.reference_cosine(float(score or 0.0), pair) for score in scores], True


async def _remember_stored_vectors(
    graph: GraphClient, embedder: Embedder, agent_id: str, belief_ids: list[str]
) -> None:
    """Hands the retrieved beliefs' stored vectors to the embedder: judging the turn's claims
    against those statements then runs the model on the claims only."""
    if not belief_ids or not embedder.settings.enabled:
        return
    rows = await graph.read_collected(
        "loop/activation/get_belief_vectors",
        agent_id=agent_id,
        ids=belief_ids,
        dimensions=embedder.dimensions,
        embedding_model=embedder.model_id,
    )
    embedder.remember([row["text"] for row in rows], [row["embedding"].to_native() for row in rows])


def _temporal_context(context: Context) -> str | None:
    section = context.sections.get("working_memory")
    for item in section.items if section else []:
        if item.get("kind") == "temporal" and item.get("contexts"):
            return str(item["contexts"][0])
    return None


@dataclass(frozen=True, slots=True)
class _Start:
    """What a turn reads at once before anything else."""

    agent: dict[str, Any]
    frame: FrameInfo | None
    dissatisfaction: Dissatisfaction
    context: Context


# What a turn's retrieval reads (the context of GET /context but the people, read apart).
TURN_SECTIONS: tuple[SectionName, ...] = (
    "beliefs",
    "episodes",
    "rules",
    "working_memory",
    "decisions",
)


@dataclass(frozen=True, slots=True)
class _Scored:
    """How relevant each retrieved belief is to the message, and the one the turn rests on."""

    relevance: dict[str, float]
    # The relevance floor in force (cosine, or token overlap without embeddings).
    floor: float
    chosen: str | None


async def activate(
    graph: GraphClient,
    embedder: Embedder,
    settings: LoopConfig,
    agent_id: str,
    message: str,
    context_name: str | None,
    session: str | None = None,
    speaker: str | None = None,
    sections: Sequence[SectionName] = TURN_SECTIONS,
    now: datetime | None = None,
) -> Activation:
    """Everything a turn knows before it judges anything.

    Args:
        sections: what retrieval reads (a call in the message's syntax is activated by
            :mod:`app.loop.tool_activation` instead).
        now: the turn's time (the loop's clock): working memory's period-end contexts and the
            recency of episodes are read at it; None is the system clock.
        context_name: the context asked for; None takes the temporal context of working memory.
        session: the conversation; its earlier turns are the history, and retrieval reads the
            message with its references to them resolved.
        speaker: who speaks; present in the turn with the known people the message names.

    Raises:
        AgentNotFound.
    """
    turn_people, history, query, start = await _read_first(
        graph, embedder, settings, agent_id, message, session, sections, now, speaker
    )
    mentions = known_names(agent_id, turn_people.names).mentions(message)
    context, frame = start.context, start.frame
    items = context.sections["beliefs"].items if "beliefs" in context.sections else []
    beliefs = [_brief(item) for item in items]
    await _remember_stored_vectors(graph, embedder, agent_id, [b.id for b in beliefs])
    scored = await _score(
        embedder, settings.loop, query, items, settings.retrieval.belief_strength_floor
    )
    name = context_name or _temporal_context(context)
    relevant, rules, people_rows = await asyncio.gather(
        _relevant_in_context(graph, settings, agent_id, beliefs, scored, name),
        applying_rules(embedder, settings.loop, query, _section(context, "rules")),
        _rows_present(graph, agent_id, turn_people.speakers, mentions),
    )
    domain = turn_domain(items, relevant.id if relevant else None)
    people = _present(settings.loop, people_rows, speaker, mentions, domain)
    return Activation(
        agent=start.agent,
        frame=frame.key if frame else "conversation",
        frame_name=frame.name if frame else "Conversation",
        stakes=frame.default_stakes if frame else "low",
        learned_category=frame.default_category if frame else "contextual",
        questions_to_ask=list(frame.questions_to_ask) if frame else [],
        dissatisfaction=start.dissatisfaction,
        context=context,
        context_name=name,
        beliefs=beliefs,
        relevance=scored.relevance,
        floor=scored.floor,
        relevant=relevant,
        at_threshold=_at_threshold(beliefs, settings.mechanics.revision_threshold),
        timings_ms=dict(context.timings_ms),
        history=bound_history(
            history,
            frame.context_budget if frame else settings.retrieval.default_budget_tokens,
            settings.loop.history_budget_share,
            settings.retrieval.chars_per_token,
        ),
        query=query,
        message=message,
        rules=rules,
        people=people,
        episodes=_recalled(settings.loop, _section(context, "episodes"), session),
        decisions=_decisions(settings.loop, _section(context, "decisions")),
        working_memory=_working_memory(settings.loop, _section(context, "working_memory")),
        urgency_multiplier=_urgency(_section(context, "working_memory")),
        mentions=mentions,
        domain=domain,
        depth=speaker_depth(people_rows, speaker, domain, frame.key if frame else "conversation"),
    )


def _at_threshold(beliefs: list[BeliefBrief], threshold: float) -> list[str]:
    """The ids of the turn's beliefs whose tension reached the revision threshold."""
    return [b.id for b in beliefs if b.tension >= threshold]


async def _read_first(
    graph: GraphClient,
    embedder: Embedder,
    settings: LoopConfig,
    agent_id: str,
    message: str,
    session: str | None,
    sections: Sequence[SectionName],
    now: datetime | None,
    speaker: str | None = None,
) -> tuple[TurnPeople, list[HistoryTurn], str, _Start]:
    """The agent's people and the session's history (one read), the query retrieval reads (the
    message with its references resolved) and the turn's start; people and history first only
    when the message points back, else all at once.

    Raises:
        AgentNotFound.
    """
    if has_reference(message):
        # Retrieval must read what "it" / "that" points to: the history comes first.
        people, history = await read_people_and_history(graph, settings, agent_id, session, speaker)
        query = resolve_references(message, [turn.message for turn in history])
        start = await _read_start(graph, embedder, settings, agent_id, query, sections, now)
        return people, history, query, start
    (people, history), start = await asyncio.gather(
        read_people_and_history(graph, settings, agent_id, session, speaker),
        _read_start(graph, embedder, settings, agent_id, message, sections, now),
    )
    return people, history, message, start


async def _read_start(
    graph: GraphClient,
    embedder: Embedder,
    settings: LoopConfig,
    agent_id: str,
    message: str,
    sections: Sequence[SectionName],
    now: datetime | None,
) -> _Start:
    """The agent, the frame, D and the context, read concurrently.

    Raises:
        AgentNotFound.
    """
    frame_task = asyncio.ensure_future(frames.choose_frame(graph, agent_id, message))

    async def frame_budget(_graph: GraphClient, _agent: str, _text: str) -> FrameChoice | None:
        # The frame chosen once for the turn also sets the context's token budget.
        chosen = (await frame_task).frame
        if chosen is None:
            return None
        return FrameChoice(key=chosen.key, name=chosen.name, budget_tokens=chosen.context_budget)

    agent, frame_choice, dissatisfaction, context = await asyncio.gather(
        find_agent_identity(graph, agent_id),
        frame_task,
        compute_dissatisfaction(graph, settings.mechanics, agent_id, top=0, count_beliefs=False),
        # The context of GET /context: beliefs (to judge, route and answer) with their open
        # contradictions, episodes, rules and working memory (whose temporal context decides
        # context-conditional strengths), within the frame's budget.
        build_context(
            graph,
            embedder,
            settings.retrieval.model_copy(
                update={"episode_vector_share": settings.loop.episode_vector_share}
            ),
            agent_id,
            ContextRequest(
                q=message[:8000],
                k=settings.loop.beliefs_per_turn,
                # People present are the speaker and those the message names (read after).
                sections=list(sections),
            ),
            choose_frame=frame_budget,
            extra_sections={"working_memory": working_memory_items},
            now=now,
        ),
    )
    if agent is None:
        raise AgentNotFound(agent_id)
    # The skill in force, parsed (Activation.skill).
    agent["skill"] = stored_skill(agent.get("skill"))
    return _Start(agent, frame_choice.frame, dissatisfaction, context)


def _brief(item: dict[str, Any]) -> BeliefBrief:
    return BeliefBrief(
        id=item["id"],
        statement=item["statement"],
        strength=float(item["strength"]),
        tension=float(item["tension"] or 0.0),
        category=item.get("category") or "contextual",
    )


async def _score(
    embedder: Embedder,
    loop: LoopSettings,
    message: str,
    items: list[dict[str, Any]],
    strength_floor: float,
) -> _Scored:
    """Relevance of each retrieved belief; the chosen one is, of those found by search (not
    only by their links) at or above the floor, the one of the highest relevance weighted by
    its strength as the belief section weighs it (``strength_floor`` + the rest · strength;
    the first found on a tie). The search's own order is the running model's (e5's cosines sit
    in a narrow band, docs/retrieval.md §8); the relevance model tells the beliefs it found apart
    (bench/README.md, "The belief a turn rests on")."""
    scores, cosine = await relevance_scores(
        embedder, message, items, model=loop.relevance_embedding_model
    )
    relevance = {item["id"]: score for item, score in zip(items, scores, strict=True)}
    floor = loop.relevance_floor if cosine else loop.relevance_floor_tokens
    chosen = chosen_belief(items, relevance, floor, strength_floor)
    return _Scored(relevance=relevance, floor=floor, chosen=chosen)


def chosen_belief(
    items: list[dict[str, Any]],
    relevance: dict[str, float],
    floor: float,
    strength_floor: float,
) -> str | None:
    """The belief a turn rests on (pure): of the retrieved ``items`` found by search at or above
    ``floor``, the one of the highest ``relevance`` · (``strength_floor`` + the rest ·
    strength), the first found on a tie; None when none is relevant."""
    relevant = [
        item
        for item in items
        if item.get("via") == "search" and relevance.get(item["id"], 0.0) >= floor
    ]

    def weighted(item: dict[str, Any]) -> float:
        strength = float(item.get("strength") or 0.0)
        return relevance[item["id"]] * (strength_floor + (1.0 - strength_floor) * strength)

    return max(relevant, key=weighted)["id"] if relevant else None


async def _relevant_in_context(
    graph: GraphClient,
    settings: LoopConfig,
    agent_id: str,
    beliefs: list[BeliefBrief],
    scored: _Scored,
    context_name: str | None,
) -> RelevantBelief | None:
    """The chosen belief with its strength in the turn's context (HOLDS_IN back-off)."""
    chosen = scored.chosen
    if chosen is None:
        return None
    row = (await context_strengths(graph, agent_id, [chosen], context_name))[0]
    brief = next(b for b in beliefs if b.id == chosen)
    return RelevantBelief(
        id=chosen,
        statement=brief.statement,
        strength=float(row["strength"]),
        default_strength=float(row["default_strength"]),
        tension=float(row["tension"] or 0.0),
        relevance=scored.relevance[chosen],
        invalidated=is_invalidated(float(row["strength"]), brief.category, settings.mechanics),
        supervision_mode=row["supervision_mode"],
    )


def _section(context: Context, name: str) -> list[dict[str, Any]]:
    section = context.sections.get(name)
    return section.items if section else []


async def applying_rules(
    embedder: Embedder, loop: LoopSettings, query: str, items: list[dict[str, Any]]
) -> list[RuleBrief]:
    """The retrieved rules that apply to the turn: at or above the rule floor (cosine of the
    message to the rule's stored vector, which is its content's, computed by the retrieval
    query; the model embeds the trigger and content only of a rule still without a vector; or
    token overlap without embeddings), most relevant first, at most ``rules_per_turn``."""
    if not items or loop.rules_per_turn == 0:
        return []
    texts = [
        {
            "statement": f"{item['trigger_concept']}: {item['content']}",
            "similarity": item.get("similarity"),
        }
        for item in items
    ]
    scores, cosine = await relevance_scores(
        embedder, query, texts, model=loop.relevance_embedding_model
    )
    floor = loop.rule_relevance_floor if cosine else loop.rule_relevance_floor_tokens
    ranked = sorted(
        (pair for pair in zip(scores, items, strict=True) if pair[0] >= floor),
        key=lambda pair: pair[0],
        reverse=True,
    )
    return [
        RuleBrief(
            id=item["id"],
            trigger_concept=item["trigger_concept"],
            content=item["content"],
            confidence=min(1.0, max(0.0, float(item.get("effective_confidence") or 0.5))),
        )
        for _, item in ranked[: loop.rules_per_turn]
    ]


def people_present(
    loop: LoopSettings,
    people: list[dict[str, Any]],
    speaker: str | None,
    ids: list[str],
    domain: str | None = None,
) -> list[PersonBrief]:
    """The speaker (when known) and the known people the message names (``ids``), from the
    agent's ``people``, with their authority, relationship value, affect and what the loop
    learned of them (trust, their level in ``domain``, goals, patterns, the speaker's topics):
    the ``people_per_turn`` of highest relationship value (then by name), the speaker first."""
    keys = [name_key(speaker)] if speaker else []
    if (not keys and not ids) or loop.people_per_turn == 0:
        return []
    wanted = set(ids)
    rows = sorted(
        (row for row in people if row["name_key"] in keys or row["id"] in wanted),
        key=lambda row: (-float(row["relationship_value"] or 0.0), row["name"]),
    )[: loop.people_per_turn]
    present = [
        PersonBrief(
            name=row["name"],
            role=row["role"],
            authority=_unit(row["authority"], 0.5),
            relationship_value=_unit(row["relationship_value"], 0.5),
            affect_valence=max(-1.0, min(1.0, float(row["affect_valence"] or 0.0))),
            affect_stress=_unit(row["affect_stress"], 0.0),
            speaker=row["name_key"] in keys,
            **_user_model_brief(row, domain),
        )
        for row in rows
    ]
    return sorted(present, key=lambda person: not person.speaker)


async def _rows_present(
    graph: GraphClient,
    agent_id: str,
    speakers: list[dict[str, Any]],
    mentions: list[Mention],
) -> list[dict[str, Any]]:
    """The rows the people present are drawn from: the speaker's, and those of the known people
    the message names (read now; the index of names found them: app/memory/people/name_index.py,
    kept between turns while the agent's names stay the same)."""
    have = {row["id"] for row in speakers}
    ids = sorted({m.person_id for m in mentions if m.known and m.person_id} - have)
    return speakers + await read_people_by_ids(graph, agent_id, ids)


def _present(
    loop: LoopSettings,
    people: list[dict[str, Any]],
    speaker: str | None,
    mentions: list[Mention],
    domain: str | None,
) -> list[PersonBrief]:
    known = [m.person_id for m in mentions if m.known and m.person_id]
    return people_present(loop, people, speaker, known, domain)


def turn_domain(items: list[dict[str, Any]], relevant_id: str | None) -> str | None:
    """The turn's domain: that of the belief it rests on (None without one, or for a belief
    about the agent itself)."""
    item = next((item for item in items if item.get("id") == relevant_id), None)
    domain = item.get("domain") if item is not None else None
    return domain if isinstance(domain, str) and domain and domain != "self" else None


def speaker_depth(
    people: list[dict[str, Any]], speaker: str | None, domain: str | None, frame: str
) -> AnswerDepth:
    """How deep the answer to the speaker goes (by their level in the turn's domain, else what
    worked with them); standard for an unknown speaker."""
    key = name_key(speaker) if speaker else None
    row = next((row for row in people if key is not None and row["name_key"] == key), None)
    if row is None:
        return "standard"
    knowledge = _knowledge(row)
    level = knowledge[domain].level if domain and domain in knowledge else None
    patterns = [SuccessfulPattern.model_validate(p) for p in _loaded(row, "successful_patterns")]
    return answer_depth(level, patterns, frame)


def _user_model_brief(row: dict[str, Any], domain: str | None) -> dict[str, Any]:
    """The user model's part of a person's brief (a row from another read may lack it)."""
    knowledge = _knowledge(row)
    return {
        "trust": _unit(row.get("trust"), 0.5),
        "knowledge_level": knowledge[domain].level if domain and domain in knowledge else None,
        "goals": [goal["goal"] for goal in _loaded(row, "inferred_goals")[:GOALS_PER_BRIEF]],
        "successful_patterns": [
            p["pattern"] for p in _loaded(row, "successful_patterns")[:PATTERNS_PER_BRIEF]
        ],
        "topics": list(row.get("topics") or []),
    }


def _knowledge(row: dict[str, Any]) -> dict[str, DomainKnowledge]:
    loaded = json.loads(row["knowledge"]) if row.get("knowledge") else {}
    return {domain: DomainKnowledge.model_validate(k) for domain, k in loaded.items()}


def _loaded(row: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = row.get(key)
    return list(json.loads(value)) if value else []


# A brief carries the person's latest goals and patterns (all are in the person view).
GOALS_PER_BRIEF = 3
PATTERNS_PER_BRIEF = 3


def _unit(value: Any, default: float) -> float:
    return max(0.0, min(1.0, float(value if value is not None else default)))


def _recalled(
    loop: LoopSettings, items: list[dict[str, Any]], session: str | None
) -> list[RecalledEpisode]:
    """Related earlier episodes, those of this session left out (they are the history)."""
    return [
        RecalledEpisode(text=item["text"], outcome=item.get("outcome"))
        for item in items
        if item.get("text") and (session is None or item.get("session") != session)
    ][: loop.episodes_per_turn]


def _decisions(loop: LoopSettings, items: list[dict[str, Any]]) -> list[PastDecision]:
    """The past decisions related to the message (seed 002's lines), most relevant first."""
    return [
        PastDecision(line=str(item["line"]), outcome=item.get("outcome"))
        for item in items
        if item.get("line")
    ][: loop.decisions_per_turn]


def _working_memory(loop: LoopSettings, items: list[dict[str, Any]]) -> list[MemoryItem]:
    """Working memory's tasks, notes and temporal context, as the reasoner sees them."""
    return [
        MemoryItem(kind=item["kind"], content=str(item["content"]))
        for item in items
        if item.get("kind") in ("task", "note", "temporal") and item.get("content")
    ][: loop.memory_items_per_turn]


def _urgency(items: list[dict[str, Any]]) -> float:
    temporal = next((item for item in items if item.get("kind") == "temporal"), None)
    return float(temporal["score"]) if temporal else 1.0
