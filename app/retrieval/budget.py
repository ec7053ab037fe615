"""Token budgets of a context: the frame's budget shared out between sections, and each
section's items kept in score order while they fit in its share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.retrieval.settings import RetrievalSettings

# The texts of an item that the context shows (a decision: its line).
TEXT_KEYS = ("statement", "text", "content", "name", "role", "hypothesis", "resolution", "line")


def estimate_tokens(item: dict[str, Any], chars_per_token: float) -> int:
    """The tokens an item costs in the context, estimated from the length of its texts."""
    text = " ".join(str(item[key]) for key in TEXT_KEYS if item.get(key) is not None)
    contradictions = item.get("contradictions") or []
    text += " ".join(str(c.get("statement", "")) for c in contradictions)
    # A research conflict shows both sources' passages.
    text += " ".join(str(s.get("text", "")) for s in item.get("sources") or [])
    return max(1, round(len(text) / chars_per_token))


def fit_to_budget(
    items: list[dict[str, Any]], budget: int, chars_per_token: float
) -> tuple[list[dict[str, Any]], int, int]:
    """Items in score order while they fit in ``budget`` tokens: (kept, tokens used, dropped)."""
    kept: list[dict[str, Any]] = []
    used = 0
    for item in items:
        cost = estimate_tokens(item, chars_per_token)
        if used + cost > budget:
            continue
        kept.append(item)
        used += cost
    return kept, used, len(items) - len(kept)


def section_budgets(
    settings: RetrievalSettings, total: int, names: Sequence[str]
) -> dict[str, int]:
    """``total`` tokens shared between the sections ``names`` in proportion to their shares."""
    shares = {
        "beliefs": settings.budget_beliefs,
        "episodes": settings.budget_episodes,
        "rules": settings.budget_rules,
        "people": settings.budget_people,
        "working_memory": settings.budget_working_memory,
    }
    chosen = {name: shares[name] for name in names if name in shares}
    total_share = sum(chosen.values()) or 1.0
    budgets = {name: int(total * share / total_share) for name, share in chosen.items()}
    if "conflicts" in names:
        budgets["conflicts"] = settings.budget_conflicts_tokens
    if "decisions" in names:
        budgets["decisions"] = settings.budget_decisions_tokens
    return budgets
