"""Frames (docs/memory.md §3): the modes an agent thinks in, installed per agent as ``Frame``
nodes, and the choice of a frame for a text.

Selection rule (:func:`select_frame`): each distinct activation pattern found in the text counts
one match (a pattern with a space as a substring, a single word as a whole token; see
``app/text/patterns.py``). The frame with the most matches wins. A tie goes to the frame
that comes first in :data:`TIE_ORDER` (decision, debug, task, creative, question,
conversation: the higher-stakes and more specific frame first, so a tie never relaxes caution,
and the broad question words lose to a concrete request), then to other frames by key. No match
at all selects ``conversation``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel

from app.common import Category
from app.errors import AgentNotFound
from app.graph.agent_scope import lock_agent
from app.graph.client import GraphClient, Transaction
from app.graph.times import datetimes_read
from app.seeds.files import read_frames
from app.seeds.pack_schema import FrameSpec, Stakes
from app.text.patterns import matched_patterns

TIE_ORDER: tuple[str, ...] = ("decision", "debug", "task", "creative", "question", "conversation")
FALLBACK_FRAME = "conversation"


class FrameLike(Protocol):
    """What selection needs of a frame (a seed FrameSpec or an installed Frame)."""

    @property
    def key(self) -> str: ...

    @property
    def activation_patterns(self) -> list[str]: ...


class FrameInfo(BaseModel):
    key: str
    name: str
    description: str = ""
    activation_patterns: list[str]
    default_category: Category
    default_stakes: Stakes
    questions_to_ask: list[str]
    context_budget: int


class Frame(FrameInfo):
    id: str
    agent_id: str
    position: int
    source: str
    is_active: bool = True
    installed_at: datetime | None = None
    updated_at: datetime | None = None


class FramePage(BaseModel):
    data: list[Frame]
    count: int


class FrameScore(BaseModel):
    key: str
    matches: int
    patterns: list[str]


class FrameSelection(BaseModel):
    """The chosen frame's key, whether any pattern matched, and every frame's matches (best
    first, in tie order)."""

    key: str
    matched: bool
    matches: int
    patterns: list[str]
    scores: list[FrameScore]


class FrameChoice(BaseModel):
    selection: FrameSelection
    frame: FrameInfo | None
    # True when the chosen frame is a shipped default the agent has not installed (active).
    from_defaults: bool


def _tie_rank(key: str) -> tuple[int, str]:
    return (TIE_ORDER.index(key), "") if key in TIE_ORDER else (len(TIE_ORDER), key)


def select_frame(frames: Sequence[FrameLike], text: str) -> FrameSelection:
    """Chooses the frame for ``text`` by the rule in the module docstring (pure, deterministic)."""
    scores = [
        FrameScore(key=frame.key, matches=len(found), patterns=found)
        for frame in frames
        for found in [matched_patterns(frame.activation_patterns, text)]
    ]
    scores.sort(key=lambda score: (-score.matches, _tie_rank(score.key)))
    if scores and scores[0].matches > 0:
        best = scores[0]
        return FrameSelection(
            key=best.key, matched=True, matches=best.matches, patterns=best.patterns, scores=scores
        )
    return FrameSelection(key=FALLBACK_FRAME, matched=False, matches=0, patterns=[], scores=scores)


def default_frames() -> list[FrameSpec]:
    """The frames shipped in ``seeds/frames.yaml``.

    Raises:
        SeedFileInvalid: the file is missing or invalid (every problem listed).
    """
    return list(_shipped_frames())


@functools.lru_cache(maxsize=1)
def _default_infos() -> tuple[FrameInfo, ...]:
    """The shipped frames as the frame choice reads them, made once per process (never
    changed after: a choice hands out these very instances)."""
    return tuple(FrameInfo.model_validate(spec.model_dump()) for spec in default_frames())


@functools.lru_cache(maxsize=1)
def _shipped_frames() -> tuple[FrameSpec, ...]:
    """The seed file is read once per process (it ships with the code)."""
    return tuple(read_frames().frames)


def _frame_params(spec: FrameSpec, position: int) -> dict[str, object]:
    return {**spec.model_dump(), "position": position}


async def install_frames(
    graph: GraphClient,
    agent_id: str,
    frames: Sequence[FrameSpec] | None = None,
    *,
    source: str = "seed",
    now: datetime | None = None,
) -> list[Frame]:
    """Installs frames into an agent (``seeds/frames.yaml`` when ``frames`` is None).

    Idempotent: a frame is merged on (agent_id, key), so installing again updates the installed
    frame in place (same id) instead of adding a twin.

    Args:
        source: where the frames came from (``seed``, or ``pack:<name>`` for a pack's frames).

    Returns:
        The agent's frames after the install (all of them, in position order).

    Raises:
        AgentNotFound: no such agent.
        SeedFileInvalid: ``frames`` is None and the seed file is invalid.
    """
    specs = list(frames) if frames is not None else default_frames()
    at = now or graph.clock.now()

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await install_frames_in(tx, agent_id, specs, source=source, now=at)

    await graph.write_transaction(work, action="installing frames")
    return (await list_frames(graph, agent_id)).data


async def install_frames_in(
    tx: Transaction,
    agent_id: str,
    specs: Sequence[FrameSpec],
    *,
    source: str,
    now: datetime | None = None,
) -> None:
    """Installs (or updates in place, active again) frames inside the caller's transaction,
    which holds the agent's lock (:func:`install_frames`, a pack's load); ``now`` defaults to
    the graph client's clock.

    Positions (the listing's order): the shipped frames (``source`` "seed") from 0 in their
    order; a pack's after all of them and after the agent's frames of every other source (the
    packs loaded before it), in the pack's order, so they never share a position."""
    params = [_frame_params(spec, position) for position, spec in enumerate(specs)]
    times = {} if now is None else {"now": now}
    seed = source == "seed"
    await tx.run(
        "memory/frames/install_frames",
        agent_id=agent_id,
        frames=params,
        source=source,
        first_position=0 if seed else len(_shipped_frames()),
        after_others=not seed,
        **times,
    )


async def list_frames(graph: GraphClient, agent_id: str) -> FramePage:
    """The agent's installed frames in position order (active ones: a frame a pack version
    dropped is retired, docs/packs.md §3).

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("memory/frames/list_frames", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    frames = frames_of(rows[0]["frames"])
    return FramePage(data=frames, count=len(frames))


async def choose_frame(graph: GraphClient, agent_id: str, text: str) -> FrameChoice:
    """The frame an agent would think in for ``text``: selected among its installed frames and
    the shipped defaults of the keys it has not installed (:func:`choose_among`).

    Raises:
        AgentNotFound: no such agent.
    """
    return choose_among((await list_frames(graph, agent_id)).data, text)


_FRAME_TIMES = ("installed_at", "updated_at")


def frames_of(rows: Sequence[dict[str, object]]) -> list[Frame]:
    """Frames from their stored property maps (as ``memory/frames/list_frames`` returns them:
    their times as text, or as datetimes)."""
    return [Frame.model_validate(datetimes_read(row, *_FRAME_TIMES)) for row in rows]


def choose_among(installed: Sequence[FrameInfo], text: str) -> FrameChoice:
    """The frame for ``text`` among the ``installed`` (active) frames and the shipped defaults
    whose keys none of them has (pure: :func:`choose_frame` without its read). An installed
    frame stands in for the default of its key; a pack's frames add to the defaults, never
    take them away (an agent created without frames, or a pack frame of a shipped key that a
    later version retired)."""
    keys = {frame.key for frame in installed}
    defaults = [frame for frame in _default_infos() if frame.key not in keys]
    candidates: list[FrameInfo] = [*installed, *defaults]
    selection = select_frame(candidates, text)
    chosen = next((frame for frame in candidates if frame.key == selection.key), None)
    return FrameChoice(
        selection=selection,
        frame=chosen,
        from_defaults=chosen is not None and chosen.key not in keys,
    )
