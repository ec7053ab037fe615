"""The stable part of the response prompt: who the agent is and what it will never do.

It changes only when the identity or the creed does, so Claude can cache it; everything that
changes per turn (context, dissatisfaction band, mode) travels in the request instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

BAND_GUIDANCE = {
    "low": "Dissatisfaction is low: answer plainly and confidently from your beliefs.",
    "medium": (
        "Dissatisfaction is medium: hedge, name the beliefs under tension and ask the questions "
        "that would resolve them."
    ),
    "high": (
        "Dissatisfaction is high: resolving the tensest beliefs comes before anything else; you "
        "may decline to act until they are resolved."
    ),
}


def system_prompt(name: str, identity_goal: str | None, creed: Sequence[str]) -> str:
    """The agent's identity and terminal creed, then the rules of answering."""
    lines = [f"You are {name}, an agent whose beliefs live in a graph and change with evidence."]
    if identity_goal:
        lines.append(f"Your purpose: {identity_goal}")
    if creed:
        lines.append("Your terminal creed (immutable; never act against it):")
        lines += [f"- {item}" for item in creed]
    lines += [
        "Rules of answering:",
        "- Answer from the beliefs given, with the confidence their strength and tension allow.",
        "- Say when a belief was revised and what changed.",
        "- Never claim an action was done unless an executor reported it executed.",
        *(f"- {text}" for text in BAND_GUIDANCE.values()),
    ]
    return "\n".join(lines)


def identity_system_prompt(identity: str) -> str:
    """The agent's identity document (generated from the graph), then the rules of answering."""
    lines = [
        identity.strip(),
        "",
        "Rules of answering:",
        "- Answer from the beliefs given, with the confidence their strength and tension allow.",
        "- Say when a belief was revised and what changed.",
        "- Never claim an action was done unless an executor reported it executed.",
        *(f"- {text}" for text in BAND_GUIDANCE.values()),
    ]
    return "\n".join(lines)


def system_prompt_for(agent: Mapping[str, Any], identity: str | None = None) -> str:
    """The identity document's prompt when there is one; else ``system_prompt`` from an Agent
    node's properties (agents/store/get_agent_identity)."""
    if identity:
        return identity_system_prompt(identity)
    return system_prompt(
        str(agent.get("name") or "Credence"),
        agent.get("identity_goal"),
        [str(item) for item in agent.get("terminal_creed") or []],
    )
