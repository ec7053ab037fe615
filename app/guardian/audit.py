"""Tier 3 of the guardian (docs/loop.md §5): high-risk requests are audited against the creed.

A request is high-risk when it touches one of the kinds of ``GuardianSettings.high_risk_kinds``
(delete, payment, credentials, external communication by default). The words of each kind match
as whole words, with their regular inflections ("delete" also matches "deletes", "deleted",
"deleting"; "drop" matches "dropped"), never inside another word ("payload" is not "pay").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.guardian.settings import GuardianSettings
from app.reasoning.protocol import Audit, AuditRequest, Reasoner, WorkSpec, WorkUnit

_VOWELS = frozenset("aeiou")


def _inflected(word: str) -> str:
    """A regex for a word and its regular inflections."""
    escaped = re.escape(word)
    forms = [f"{escaped}(?:s|es|d|ed|ing)?"]
    if word.endswith("e") and len(word) > 2:
        forms.append(f"{re.escape(word[:-1])}(?:ing|ed)")
    if (
        len(word) >= 3
        and word[-1] not in _VOWELS | {"w", "x", "y"}
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
    ):
        forms.append(f"{escaped}{re.escape(word[-1])}(?:ed|ing)")
    return "(?:" + "|".join(forms) + ")"


def _phrase(phrase: str) -> str:
    words = phrase.lower().split()
    if not words:
        return ""
    return r"\s+".join([re.escape(word) for word in words[:-1]] + [_inflected(words[-1])])


@lru_cache(maxsize=64)
def _kind_patterns(
    kinds: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    patterns: list[tuple[str, re.Pattern[str]]] = []
    for kind, phrases in kinds:
        parts = [part for part in (_phrase(phrase) for phrase in phrases) if part]
        if parts:
            alternation = "|".join(parts)
            patterns.append((kind, re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)))
    return tuple(patterns)


def work_unit_text(unit: WorkSpec) -> str:
    """What the guardian reads of a work unit: its description, verb and the entities it acts
    on, and for a tool call each argument value, one line each (an entity or a SQL argument
    such as "DROP TABLE ledger" is checked like the same words in a message; line-anchored
    censors read each part on its own)."""
    parts = [unit.description, unit.verb.replace("_", " "), *unit.entities]
    call = unit.call if isinstance(unit, WorkUnit) else None
    if call is not None:
        parts.extend(_string_values(call.arguments))
    return "\n".join(part.strip() for part in parts if part.strip())


def _string_values(value: Any) -> list[str]:
    """Every string inside a tool call's arguments (nested objects and lists included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _string_values(item)]
    if isinstance(value, list):
        return [text for item in value for text in _string_values(item)]
    return []


def high_risk_kinds(text: str, settings: GuardianSettings) -> list[str]:
    """The high-risk kinds ``text`` touches, in the order of the settings (pure)."""
    kinds = tuple((kind, tuple(words)) for kind, words in settings.high_risk_kinds.items())
    return [kind for kind, pattern in _kind_patterns(kinds) if pattern.search(text)]


async def creed_for(graph: GraphClient, agent_id: str) -> list[str]:
    """The creed an action is audited against: the agent's terminal creed, then its active
    ethical core beliefs (strongest first), without repeats.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("guardian/audit/get_creed", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    creed: list[str] = []
    for statement in [*rows[0]["terminal_creed"], *rows[0]["ethical_core"]]:
        if statement and statement not in creed:
            creed.append(statement)
    return creed


async def audit_request(
    reasoner: Reasoner,
    message: str,
    work_unit: WorkUnit | None,
    creed: list[str],
    kinds: list[str],
) -> Audit:
    """Asks the reasoner to audit a high-risk request against the creed.

    Returns:
        The reasoner's audit: passed, risk (low/medium/high) and concerns.
    """
    return await reasoner.audit(
        AuditRequest(message=message, work_unit=work_unit, creed=creed, risk_kinds=kinds)
    )


async def audit_if_high_risk(
    graph: GraphClient,
    reasoner: Reasoner,
    settings: GuardianSettings,
    agent_id: str,
    message: str,
    work_unit: WorkUnit | None = None,
) -> Audit | None:
    """Tier 3 in one call for the loop: None when neither the message nor the work unit's verb
    and description touch a high-risk kind; else the reasoner's audit against the agent's creed.

    Raises:
        AgentNotFound: no such agent (only read when the request is high-risk).
    """
    text = message
    if work_unit is not None:
        text = f"{message}\n{work_unit_text(work_unit)}"
    kinds = high_risk_kinds(text, settings)
    if not kinds:
        return None
    creed = await creed_for(graph, agent_id)
    return await audit_request(reasoner, message, work_unit, creed, kinds)
