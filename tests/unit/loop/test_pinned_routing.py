"""route() with a mode pinned on the relevant belief (docs/loop.md §4): the pin replaces the
strength's base mode, and the refusals before it and the safety steps after it still apply, in
their order."""

from __future__ import annotations

from typing import Any

import pytest

from app.beliefs.mechanics import Mechanics
from app.loop.routing import Route, Supervision, route

M = Mechanics()


def _route(strength: float | None, pinned: Supervision | None, **overrides: Any) -> Route:
    fields: dict[str, Any] = {
        "stakes": "low",
        "band": "low",
        "censor_action": "allow",
        "audit_failed": False,
        "invalidated": False,
    } | overrides
    return route(strength, mechanics=M, pinned=pinned, **fields)


@pytest.mark.parametrize(
    ("strength", "pinned", "derived"),
    [
        (0.9, "guidance", "autonomous"),
        (0.9, "proposal", "autonomous"),
        (0.2, "autonomous", "guidance"),
        (0.55, "guidance", "proposal"),
        (0.55, "proposal", "proposal"),
    ],
)
def test_a_pin_replaces_the_strengths_mode(
    strength: float, pinned: Supervision, derived: str
) -> None:
    routed = _route(strength, pinned)
    assert routed.mode == pinned
    assert routed.reasons == (
        f"pinned to {pinned} on the belief (its strength {strength:.2f} would give {derived})",
    )


def test_without_a_pin_the_strength_decides() -> None:
    assert _route(0.9, None).reasons == ("relevant belief strength 0.90 → autonomous",)
    assert _route(0.9, None).mode == "autonomous"


def test_no_relevant_belief_asks_for_guidance_whatever_the_pin() -> None:
    routed = _route(None, "autonomous")
    assert routed.mode == "guidance"
    assert routed.reasons == ("no relevant belief: ask for guidance",)


@pytest.mark.parametrize("action", ["block", "absolute"])
def test_a_censor_refuses_before_the_pin(action: str) -> None:
    routed = _route(0.9, "autonomous", censor_action=action)
    assert routed.mode == "blocked"
    assert routed.reasons == (f"a {action} censor matched the request",)


def test_a_failed_audit_refuses_before_the_pin() -> None:
    routed = _route(0.9, "autonomous", audit_failed=True)
    assert routed.mode == "blocked"
    assert routed.reasons == ("the tier-3 audit against the creed failed",)


@pytest.mark.parametrize(
    ("overrides", "step"),
    [
        ({"invalidated": True}, "the relevant belief is invalidated"),
        ({"stakes": "high"}, "high-stakes frame: capped at proposal"),
        ({"band": "high"}, "high dissatisfaction: lowered to proposal"),
    ],
)
def test_each_safety_step_lowers_a_pinned_autonomous(overrides: dict[str, Any], step: str) -> None:
    routed = _route(0.2, "autonomous", **overrides)
    assert routed.mode == "proposal"
    assert routed.reasons[0].startswith("pinned to autonomous")
    assert routed.reasons[1].startswith(step)


def test_the_safety_steps_apply_after_the_pin_in_their_order() -> None:
    routed = _route(0.3, "autonomous", invalidated=True, stakes="high", band="high")
    # Invalidated caps at proposal (the stakes then find nothing to cap); D lowers one step.
    assert routed.mode == "guidance"
    assert routed.reasons == (
        "pinned to autonomous on the belief (its strength 0.30 would give guidance)",
        "the relevant belief is invalidated (below its category's threshold)",
        "high dissatisfaction: lowered to guidance",
    )
    pinned_proposal = _route(0.9, "proposal", band="high")
    assert pinned_proposal.mode == "guidance"
    assert _route(0.9, "guidance", band="high", stakes="high").mode == "guidance"
