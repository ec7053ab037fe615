"""Routing a turn (docs/loop.md §4): which supervision mode it runs in, and why.

Pure functions: a block (or absolute) censor or a failed audit refuses; else the mode pinned on
the relevant belief (``PATCH /beliefs/{bid}`` ``supervision_mode``) decides, or without a pin its
context-conditional strength (< 0.4 guidance, < 0.7 proposal, else autonomous; none relevant →
guidance); then the safety steps apply to either: an invalidated belief (A.C.R.E.) never decides
autonomy; a high-stakes frame caps at proposal; high dissatisfaction lowers the mode one step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.beliefs.formulas import supervision_mode
from app.beliefs.mechanics import Mechanics

Supervision = Literal["guidance", "proposal", "autonomous"]
Routed = Literal["guidance", "proposal", "autonomous", "blocked"]
STEPS: tuple[Supervision, ...] = ("guidance", "proposal", "autonomous")


@dataclass(frozen=True, slots=True)
class Route:
    mode: Routed
    reasons: tuple[str, ...]


def route(
    strength: float | None,
    *,
    stakes: str,
    band: str,
    censor_action: str,
    audit_failed: bool,
    mechanics: Mechanics,
    invalidated: bool = False,
    pinned: Supervision | None = None,
) -> Route:
    """The turn's mode and the reasons for it, in the order they applied.

    Args:
        pinned: the mode pinned on the relevant belief (None: derived from its strength); it
            replaces the strength-derived base mode, and every safety step still applies to it.
    """
    if censor_action in ("block", "absolute"):
        return Route("blocked", (f"a {censor_action} censor matched the request",))
    if audit_failed:
        return Route("blocked", ("the tier-3 audit against the creed failed",))
    mode: Supervision = supervision_mode(strength, mechanics)
    if strength is None:
        reasons = ["no relevant belief: ask for guidance"]
    elif pinned is not None:
        reasons = [
            f"pinned to {pinned} on the belief (its strength {strength:.2f} would give {mode})"
        ]
        mode = pinned
    else:
        reasons = [f"relevant belief strength {strength:.2f} → {mode}"]
    if invalidated and mode == "autonomous":
        mode = "proposal"
        reasons.append("the relevant belief is invalidated (below its category's threshold)")
    if stakes == "high" and mode == "autonomous":
        mode = "proposal"
        reasons.append("high-stakes frame: capped at proposal")
    if band == "high" and mode != "guidance":
        mode = STEPS[STEPS.index(mode) - 1]
        reasons.append(f"high dissatisfaction: lowered to {mode}")
    return Route(mode, tuple(reasons))
