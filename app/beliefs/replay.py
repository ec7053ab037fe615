"""Event sourcing: rebuild every belief's strength, tension and context strengths from its
``BeliefEvent``s alone, re-applying the formulas of :mod:`app.beliefs.formulas`.

Events that carry their inputs (outcomes, reinforcement, contradiction, cascade) are recomputed.
A cascade event records the supporters its mean counted (``cascade_strength.cypher``): replay
re-derives the mean from them and checks each listed supporter's strength against the replayed
one at that moment. A cascade event written before events recorded their inputs is taken on
trust (its recorded value; counted in ``Replay.trusted_cascades``). Each event's recorded *old*
value must equal the replayed value before it: a gap means an update was lost or written
outside the engine.
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
    # The supporters (id -> weight) of its latest cascade, while that cascade's result is its
    # strength and its event listed every supporter counted, as the edge events since changed
    # them (a SUPPORTS edge linked, re-weighed or removed); else None.
    derived_from: dict[str, float] | None = None
    derived_at: int = 0
    # The event that last set derived_from: 'cascade' or an edge event's action.
    derived_by: str = "cascade"


@dataclass
class Replay:
    beliefs: dict[str, ReplayedBelief]
    problems: list[str]
    trusted_cascades: int = 0


def _differs(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) > TOLERANCE


def replay_events(events: Iterable[dict[str, Any]], mechanics: Mechanics) -> Replay:
    """Replays events in sequence order (pure; no database)."""
    beliefs: dict[str, ReplayedBelief] = {}
    problems: list[str] = []
    trusted_cascades = 0
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
        if kind == "cascade":
            if event.get("weight_sum") is None:
                trusted_cascades += 1
            else:
                problems.extend(_cascade_input_problems(event, beliefs))
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
    return Replay(beliefs=beliefs, problems=problems, trusted_cascades=trusted_cascades)


def _cascade_input_problems(event: dict[str, Any], beliefs: dict[str, ReplayedBelief]) -> list[str]:
    """What disagrees between a cascade event's recorded inputs and the replay: a listed
    supporter's strength then (each must be the replayed one, of an active belief), and the
    sums when the list is complete (they must be its own sums)."""
    where = f"seq {event['seq']} (cascade) on {event['belief_id']}"
    ids, strengths, weights = (
        event.get("supporter_ids") or [],
        event.get("supporter_strengths") or [],
        event.get("supporter_weights") or [],
    )
    problems = []
    for supporter_id, strength in zip(ids, strengths, strict=True):
        supporter = beliefs.get(supporter_id)
        if supporter is None or not supporter.is_active:
            problems.append(f"{where}: supporter {supporter_id} counted but not an active belief")
        elif _differs(supporter.strength, strength):
            problems.append(
                f"{where}: supporter {supporter_id} counted at strength {strength} "
                f"but replay has {supporter.strength}"
            )
    if event.get("supporter_count") == len(ids) and (
        _differs(sum(w * s for w, s in zip(weights, strengths, strict=True)), event["weighted_sum"])
        or _differs(sum(weights), event["weight_sum"])
    ):
        problems.append(f"{where}: the sums recorded are not those of the supporters listed")
    return problems


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
            state.derived_from = None if new != before else state.derived_from
        elif not state.is_distrusted:
            state.contexts[event["context"]] = new
        state.is_distrusted = state.is_distrusted or event.get("note") == "became distrusted"
        return new, None
    if kind == "reinforcement":
        if not state.is_distrusted:
            for weight in event.get("weights") or [event["weight"]]:
                state.strength = formulas.reinforce(state.strength, weight, mechanics)
            state.derived_from = None
        return state.strength, None
    if kind == "contradiction":
        state.tension = formulas.add_tension(state.tension, event["delta"])
        return None, state.tension
    if kind == "cascade":
        return _apply_cascade(state, event)
    if action in SUPPORT_ACTIONS:
        _apply_support_edge(state, event)
    if (kind == "revision" and action == "superseded") or action == "deactivated":
        state.is_active = False
    return None, None


# The events of a SUPPORTS edge into a belief: linked or re-weighed (by hand, by a turn, by a
# pack, or taken over by a revised belief), removed by hand, retired by a pack, moved from a
# supporter to its revision (docs/beliefs.md §6); none moves a strength itself.
SUPPORT_ACTIONS = frozenset(
    {"support_linked", "support_reweighed", "support_removed", "support_retired", "support_moved"}
)


def _apply_support_edge(state: ReplayedBelief, event: dict[str, Any]) -> None:
    """An edge event changes the supporters the belief's strength must be the mean of: the
    cascade that follows re-derives it, and one that never ran is named (:func:`_missed_cascade`,
    which stands aside unless the stored edges are exactly those). A belief no cascade derived
    yet rests on the linked supporter alone from then on."""
    supporter_id, action = event["supporter_id"], event["action"]
    counted = dict(state.derived_from or {})
    if action in ("support_removed", "support_retired"):
        counted.pop(supporter_id, None)
    else:
        if action == "support_moved":  # the revision replaced the supporter
            counted.pop(event["old_supporter_id"], None)
        counted[supporter_id] = event["weight"]
    state.derived_from, state.derived_at, state.derived_by = counted, event["seq"], action


def _apply_cascade(state: ReplayedBelief, event: dict[str, Any]) -> tuple[float | None, None]:
    """A cascade event: its strength re-derived from its recorded sums, else (an event written
    before events recorded their inputs) its recorded strength, on trust."""
    if event.get("weight_sum") is None:
        state.strength, state.derived_from = event["new_strength"], None
        return None, None
    state.strength = event["weighted_sum"] / event["weight_sum"]
    ids = event.get("supporter_ids") or []
    complete = event.get("supporter_count") == len(ids)
    state.derived_from = (
        dict(zip(ids, event.get("supporter_weights") or [], strict=True)) if complete else None
    )
    state.derived_at, state.derived_by = event["seq"], "cascade"
    return state.strength, None


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
    trusted_cascades: int = Field(
        default=0,
        description="Cascade events written before events recorded the supporters they were "
        "derived from: their strength is taken as recorded, not re-derived.",
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
        trusted_cascades=replay.trusted_cascades,
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
        missed = _missed_cascade(row, state, replay.beliefs)
        if missed:
            differences.append(missed)
        for context in row["contexts"]:
            replayed = state.contexts.get(context["name"])
            if replayed is None or _differs(replayed, context["strength"]):
                differences.append(
                    f"{row['id']}: strength in {context['name']} stored "
                    f"{context['strength']}, replayed {replayed}"
                )
    return differences


def _missed_cascade(
    row: dict[str, Any], state: ReplayedBelief, beliefs: dict[str, ReplayedBelief]
) -> str | None:
    """The cascade a belief lacks, when its strength is still its latest cascade's result but
    the supporters that cascade counted no longer give it: one of them moved or was deactivated
    since, and nothing re-derived it (docs/beliefs.md §6). Said only when the SUPPORTS edges
    into it are still those the cascade counted (same ids and weights; other edges only from
    inactive beliefs), so that edges written without an event never make a false alarm."""
    counted = state.derived_from
    if counted is None or not state.is_active or state.is_distrusted:
        return None
    if any(supporter_id not in beliefs for supporter_id in counted):
        return None  # named among the replay's problems already
    edges = {supporter["id"]: supporter["weight"] for supporter in row.get("supporters") or []}
    if any(
        supporter_id not in edges or _differs(edges[supporter_id], weight)
        for supporter_id, weight in counted.items()
    ) or any(
        supporter_id not in counted
        and (supporter_id not in beliefs or beliefs[supporter_id].is_active)
        for supporter_id in edges
    ):
        return None
    active = {
        supporter_id: weight
        for supporter_id, weight in counted.items()
        if beliefs[supporter_id].is_active
    }
    if not active:  # a belief left with no active supporter keeps its strength
        return None
    derived = sum(w * beliefs[i].strength for i, w in active.items()) / sum(active.values())
    if not _differs(derived, state.strength):
        return None
    if state.derived_by != "cascade":
        return (
            f"{row['id']}: strength {state.strength} should be derived from {len(counted)} "
            f"supporter(s) since seq {state.derived_at} ({state.derived_by}), which give "
            f"{derived}: no cascade re-derived it"
        )
    return (
        f"{row['id']}: strength {state.strength} was derived at seq {state.derived_at} from "
        f"{len(counted)} supporter(s), which now give {derived}: no cascade re-derived it"
    )
