"""Closing a session (seed 002 / 003): explicitly, at the end of a turn that asks for it, or
after an idle timeout.

Closing sets peak-end salience (:func:`app.memory.episodes.end_sessions`), writes the session's
summary, its lessons (what worked, what failed, what was revised) and its "learned:" items (the
beliefs learned in it), and then triggers reflection when enough unconsolidated episodes have
gathered (seed 003: after a session, at least ``reflect_min_episodes``; clusters of at least
``reflect_min_cluster_size``). A turn also triggers reflection every ``reflect_every_episodes``
open episodes. The summary is composed from the graph without a model call.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.errors import Conflict, CredenceError, NotFound
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import Transaction
from app.loop.services import LoopServices
from app.memory.episodes import end_sessions
from app.memory.reflection.models import ReflectionFailed, ReflectRequest
from app.memory.reflection.procedure import reflect
from app.memory.session_order import ROLE_SPEAKERS
from app.text.references import subject_of

log = logging.getLogger(__name__)

CloseTrigger = Literal["explicit", "end_of_turn", "idle_timeout"]
# Items of each kind a session's lessons name at most, and the characters quoted of a turn.
LESSONS_PER_KIND = 3
QUOTE_CHARS = 160


class SessionReflection(BaseModel):
    """Whether closing the session ran reflection, and what it made."""

    ran: bool
    open_episodes: int = Field(
        description="Episodes written since the last reflection, before it ran."
    )
    rules: list[str] = Field(default_factory=list, description="Ids of the rules it wrote.")
    why: str


class SessionClosed(BaseModel):
    """A closed session: its peak and end, summary, lessons, learned items, and reflection."""

    session: str
    trigger: CloseTrigger
    episodes: int
    peak_id: str | None
    end_id: str
    summary: str
    lessons: list[str]
    learned: list[str]
    reflection: SessionReflection


async def close_session(
    services: LoopServices,
    agent_id: str,
    key: str,
    trigger: CloseTrigger = "explicit",
    *,
    now: datetime | None = None,
    reflect: bool = True,
) -> SessionClosed:
    """Closes one session: peak-end salience, summary, lessons, learned items, and reflection
    when due (``reflect=False``: the caller runs it later, the answer says so).

    Raises:
        AgentNotFound: no such agent.
        NotFound: the agent has no session ``key`` with episodes.
    """
    at = now or services.clock.now()
    graph = services.graph
    await require_agent(graph, agent_id)
    [ended] = await end_sessions(graph, services.settings.retrieval, agent_id, [key])
    rows = await graph.read("loop/sessions/get_session_digest", agent_id=agent_id, key=key)
    if not rows:
        raise NotFound(f"no session {key!r} in agent {agent_id!r}", session=key, agent_id=agent_id)
    digest = rows[0]
    summary = session_summary(key, digest["episodes"])
    lessons = session_lessons(digest["episodes"])
    learned = [f"learned: {statement}" for statement in digest["learned"]]

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await tx.run(
            "loop/sessions/close_session",
            agent_id=agent_id,
            key=key,
            close={
                "summary": summary,
                "lessons": lessons,
                "learned": learned,
                "trigger": trigger,
                "at": at,
            },
        )

    await graph.write_transaction(work, action="closing a session")
    loop = services.settings.loop
    reflection = (
        await reflect_if_due(services, agent_id, loop.reflect_min_episodes, "after the session")
        if reflect
        else SessionReflection(ran=False, open_episodes=0, why="runs after the turn's answer")
    )
    return SessionClosed(
        session=key,
        trigger=trigger,
        episodes=ended.episodes,
        peak_id=ended.peak_id,
        end_id=ended.end_id,
        summary=summary,
        lessons=lessons,
        learned=learned,
        reflection=reflection,
    )


async def close_idle_sessions(
    services: LoopServices, agent_id: str, *, now: datetime | None = None, reflect: bool = True
) -> list[SessionClosed]:
    """Closes the agent's chat sessions idle longer than ``session_idle_timeout_minutes`` (a
    few per call, the longest idle first); a session that fails to close is logged and left."""
    at = now or services.clock.now()
    loop = services.settings.loop
    rows = await services.graph.read(
        "loop/sessions/find_idle_sessions",
        agent_id=agent_id,
        before=at - timedelta(minutes=loop.session_idle_timeout_minutes),
        limit=loop.idle_sessions_per_sweep,
    )
    closed: list[SessionClosed] = []
    for row in rows:
        try:
            closed.append(
                await close_session(services, agent_id, row["key"], "idle_timeout", reflect=reflect)
            )
        except CredenceError:
            log.exception("closing idle session %s of agent %s failed", row["key"], agent_id)
    return closed


async def reflect_if_due(
    services: LoopServices, agent_id: str, minimum: int, when: str
) -> SessionReflection:
    """Runs reflection when the agent wrote at least ``minimum`` episodes since its last
    reflection (clusters of at least ``reflect_min_cluster_size``, as the seed's consolidation
    says). Counted on the Agent node, so the check costs the same at 100k episodes; and episodes
    that reflection left unclustered do not make it run again after every turn."""
    loop = services.settings.loop
    rows = await services.graph.read("loop/sessions/count_open_episodes", agent_id=agent_id)
    waiting = int(rows[0]["open"]) if rows else 0
    if not loop.reflect_on_session_close and when == "after the session":
        return SessionReflection(ran=False, open_episodes=waiting, why="switched off")
    if waiting < minimum:
        return SessionReflection(
            ran=False,
            open_episodes=waiting,
            why=f"{waiting} open episode(s) {when}; reflection needs {minimum}",
        )
    try:
        report = await reflect(
            services.graph,
            services.embedder,
            services.reasoner,
            agent_id,
            ReflectRequest(min_cluster_size=loop.reflect_min_cluster_size),
            settings=services.settings.reflection,
            mechanics=services.settings.memory,
        )
    except (ReflectionFailed, Conflict) as failure:
        # Nothing of it was written (the reasoner failed, or an episode was deleted meanwhile);
        # the episodes wait for the next trigger.
        log.warning("reflection %s failed for agent %s: %s", when, agent_id, failure.message)
        return SessionReflection(
            ran=False, open_episodes=waiting, why=f"reflection failed: {failure.message}"
        )
    rules = [cluster.rule_id for cluster in report.clusters if cluster.rule_id]
    return SessionReflection(
        ran=True,
        open_episodes=waiting,
        rules=rules,
        why=f"{waiting} open episode(s) {when}: {len(report.clusters)} cluster(s) consolidated",
    )


def session_summary(key: str, episodes: list[dict[str, Any]]) -> str:
    """One paragraph: how many turns, with whom, about what, how they turned out."""
    if not episodes:
        return f"Session {key}: no turns."
    speakers = list(
        dict.fromkeys(
            str(e["speaker"])
            for e in episodes
            # speakers named by their role only (the agent itself, a user) are not named
            if e.get("speaker") and str(e["speaker"]).casefold() not in ROLE_SPEAKERS
        )
    )
    topics = list(
        dict.fromkeys(
            topic for e in episodes if (topic := subject_of(str(e.get("text") or ""))) is not None
        )
    )[:4]
    outcomes = {
        kind: sum(1 for e in episodes if e.get("outcome") == kind)
        for kind in ("success", "failure", "partial")
    }
    revised = sum(1 for e in episodes if e.get("revision_triggered"))
    parts = [
        f"Session {key}: {len(episodes)} turn(s)"
        + (f" with {', '.join(speakers)}" if speakers else "")
        + "."
    ]
    if topics:
        parts.append(f"Topics: {'; '.join(topics)}.")
    done = [f"{count} {kind}" for kind, count in outcomes.items() if count]
    parts.append(f"Outcomes: {', '.join(done)}." if done else "Nothing was executed.")
    if revised:
        parts.append(f"{revised} turn(s) revised a belief.")
    return " ".join(parts)


def session_lessons(episodes: list[dict[str, Any]]) -> list[str]:
    """What the session teaches: what failed (first), what made a belief change, what worked."""
    lessons: list[str] = []
    kinds = (
        ("What failed", lambda e: e.get("outcome") == "failure"),
        ("A belief was revised after", lambda e: bool(e.get("revision_triggered"))),
        ("What worked", lambda e: e.get("outcome") == "success"),
    )
    for lead, chosen in kinds:
        picked = [e for e in episodes if chosen(e)][:LESSONS_PER_KIND]
        lessons += [f"{lead}: {_quote(str(e.get('text') or ''))}" for e in picked]
    return lessons


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1].rstrip() + "…"
