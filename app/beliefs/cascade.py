"""Cascade of derived strengths along SUPPORTS (inside the caller's transaction)."""

from __future__ import annotations

from app.beliefs.mechanics import Mechanics
from app.beliefs.models import StrengthMove
from app.graph.client import Transaction

# The most supporters one cascade event lists (heaviest edge first): the event of a belief with
# a thousand supporters stays small, and still records their count and the sums the mean used.
MAX_RECORDED_SUPPORTERS = 50


async def cascade_from(
    tx: Transaction, mechanics: Mechanics, agent_id: str, changed_ids: list[str], cause: str | None
) -> list[StrengthMove]:
    """Re-derives every belief above ``changed_ids``, in dependency order, in ``tx``; each move's
    ``cascade`` event records the supporters it was derived from (docs/beliefs.md §6)."""
    if not changed_ids:
        return []
    rows = await tx.run(
        "beliefs/cascade/cascade_strength",
        agent_id=agent_id,
        changed_ids=changed_ids,
        m=mechanics.as_params(),
        cause=cause,
        max_inputs=MAX_RECORDED_SUPPORTERS,
    )
    return [StrengthMove.model_validate(move) for move in rows[0]["moved"]]
