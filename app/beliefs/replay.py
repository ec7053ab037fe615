"""Event sourcing: rebuild every belief's strength, tension and context strengths from its
``BeliefEvent``s alone, re-applying the formulas of :mod:`app.beliefs.formulas`.

Events that carry their inputs (outcomes, reinforcement, contradiction) are recomputed; derived
ones (cascade) take their recorded value. Each event's recorded *old* value must equal the
replayed value before it: a gap means an update was lost or written outside the engine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from app.beliefs import formulas
from app.beliefs.mechanics import Mechanics
from app.graph.agent_scope import require_agent
from app.graph.client import GraphClient

TOLERANCE = 1e-9


@dataclass
class ReplayedBelief:
    strength: float
    tension: float
    contexts: dict[str, float] = field(default_factory=dict)
    is_active: bool = True
    is_distrusted: bool = False


@dataclass
class Replay:
    beliefs: dict[str, ReplayedBelief]
    problems: list[str]


def _differs(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) > TOLERANCE


def replay_events(events: Iterable[dict[str, Any]], mechanics: Mechanics) -> Replay:
    """Replays events in sequence order (pure; no database)."""
    beliefs: dict[str, ReplayedBelief] = {}
    problems: list[str] = []
    last_seq = 0
    for event in sorted(events, key=lambda e: e["seq"]):
        seq, belief_id = event["seq"], event["belief_id"]
        if seq != last_seq + 1:
            problems.append(f"seq {seq}: follows {last_seq} (gap or duplicate)")
        last_seq = seq
        kind, action = event["kind"], event.get("action")
        if action == "created":
            beliefs[belief_id] = ReplayedBelief(
                strength=event["new_strength"],
                tension=event["new_tension"],
                contexts=dict(
                    zip(
                        event.get("context_names") or [],
                        event.get("context_strengths") or [],
                        strict=True,
                    )
                ),
            )
            continue
        state = beliefs.get(belief_id)
        if state is None:
            problems.append(f"seq {seq}: event for {belief_id} before its creation")
            continue
        context = event.get("context")
        before = state.contexts.get(context, event["old_strength"]) if context else state.strength
        if _differs(before, event.get("old_strength")):
            problems.append(
                f"seq {seq} ({kind}) on {belief_id}: recorded old strength "
                f"{event['old_strength']} but replay has {before}"
            )
        if _differs(state.tension, event.get("old_tension")):
            problems.append(
                f"seq {seq} ({kind}) on {belief_id}: recorded old tension "
                f"{event['old_tension']} but replay has {state.tension}"
            )
        expected_strength, expected_tension = _apply(state, event, before, mechanics)
        if _differs(expected_strength, event.get("new_strength")):
            problems.append(
                f"seq {seq} ({kind}) on {belief_id}: formula gives strength "
                f"{expected_strength}, event recorded {event['new_strength']}"
            )
        if _differs(expected_tension, event.get("new_tension")):
            problems.append(
                f"seq {seq} ({kind}) on {belief_id}: formula gives tension "
                f"{expected_tension}, event recorded {event['new_tension']}"
            )
    return Replay(beliefs=beliefs, problems=problems)


def _apply(
    state: ReplayedBelief, event: dict[str, Any], before: float, mechanics: Mechanics
) -> tuple[float | None, float | None]:
    """Applies one event to ``state``; returns the (strength, tension) the formulas give, where
    the event is one the formulas decide."""
    kind, action = event["kind"], event.get("action")
    if kind == "outcome":
        new = (
            before
            if state.is_distrusted
            else formulas.outcome_update(
                before, event["outcome"], event["moral_valence"], event["severity"], mechanics
            )
        )
        if not event.get("context"):
            state.strength = new
        elif not state.is_distrusted:
            state.contexts[event["context"]] = new
        state.is_distrusted = state.is_distrusted or event.get("note") == "became distrusted"
        return new, None
    if kind == "reinforcement":
        if not state.is_distrusted:
            for weight in event.get("weights") or [event["weight"]]:
                state.strength = formulas.reinforce(state.strength, weight, mechanics)
        return state.strength, None
    if kind == "contradiction":
        state.tension = formulas.add_tension(state.tension, event["delta"])
        return None, state.tension
    if kind == "cascade":
        state.strength = event["new_strength"]
    elif (kind == "revision" and action == "superseded") or action == "deactivated":
        state.is_active = False
    return None, None


async def replay_agent(graph: GraphClient, mechanics: Mechanics, agent_id: str) -> Replay:
    """Reads every event of an agent (in pages) and replays them."""
    return replay_events(await _read_events(graph, agent_id), mechanics)


async def _read_events(graph: GraphClient, agent_id: str) -> list[dict[str, Any]]:
    """Every event of an agent, in sequence order, read in pages."""
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = (
            await graph.read(
                "beliefs/events/list_events",
                agent_id=agent_id,
                belief_id=None,
                after_seq=after,
                limit=5000,
            )
        )[0]["events"]
        events.extend(page)
        if len(page) < 5000:
            break
        after = page[-1]["seq"]
    return events


# A report lists at most this many differences (all are counted).
MAX_LISTED = 100


class ConsistencyReport(BaseModel):
    """Whether the agent's event log explains its beliefs exactly (seed 000's replay)."""

    agent_id: str
    events: int = Field(description="BeliefEvents replayed.")
    beliefs: int = Field(description="Beliefs stored.")
    consistent: bool
    difference_count: int
    differences: list[str] = Field(
        description=f"Each difference or continuity problem (the first {MAX_LISTED})."
    )


async def check_consistency(
    graph: GraphClient, mechanics: Mechanics, agent_id: str
) -> ConsistencyReport:
    """Rebuilds the agent's beliefs from its event log alone and compares them with the graph;
    the replay itself runs off the event loop (a long log is seconds of Python).

    Raises:
        AgentNotFound: no such agent.
    """
    await require_agent(graph, agent_id)
    events = await _read_events(graph, agent_id)
    stored = (await graph.read("beliefs/events/get_belief_states", agent_id=agent_id))[0]["states"]
    replay = await asyncio.to_thread(replay_events, events, mechanics)
    differences = differences_from_stored(replay, stored)
    return ConsistencyReport(
        agent_id=agent_id,
        events=len(events),
        beliefs=len(stored),
        consistent=not differences,
        difference_count=len(differences),
        differences=differences[:MAX_LISTED],
    )


async def compare_with_stored(graph: GraphClient, mechanics: Mechanics, agent_id: str) -> list[str]:
    """Replays the agent's events and lists every difference from the stored state (plus every
    continuity problem). An empty list means the event log explains the graph exactly."""
    replay = await replay_agent(graph, mechanics, agent_id)
    stored = (await graph.read("beliefs/events/get_belief_states", agent_id=agent_id))[0]["states"]
    return differences_from_stored(replay, stored)


def differences_from_stored(replay: Replay, stored: list[dict[str, Any]]) -> list[str]:
    """Every difference between the replayed and the stored beliefs, after the replay's own
    continuity problems (pure)."""
    differences = list(replay.problems)
    for row in stored:
        state = replay.beliefs.get(row["id"])
        if state is None:
            differences.append(f"{row['id']}: stored but never created by an event")
            continue
        if _differs(state.strength, row["strength"]):
            differences.append(
                f"{row['id']}: strength stored {row['strength']}, replayed {state.strength}"
            )
        if _differs(state.tension, row["tension"]):
            differences.append(
                f"{row['id']}: tension stored {row['tension']}, replayed {state.tension}"
            )
        if state.is_active != row["is_active"]:
            differences.append(
                f"{row['id']}: is_active stored {row['is_active']}, replayed {state.is_active}"
            )
        if state.is_distrusted != row["is_distrusted"]:
            differences.append(
                f"{row['id']}: is_distrusted stored {row['is_distrusted']}, "
                f"replayed {state.is_distrusted}"
            )
        for context in row["contexts"]:
            replayed = state.contexts.get(context["name"])
            if replayed is None or _differs(replayed, context["strength"]):
                differences.append(
                    f"{row['id']}: strength in {context['name']} stored "
                    f"{context['strength']}, replayed {replayed}"
                )
    return differences
