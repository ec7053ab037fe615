"""Tier 1 of the guardian (DESIGN §5): every censor of the agent against one text.

The loop calls :func:`check` on the user's input and on each proposed action's description. It
costs one graph read (the agent's active censors) plus regular-expression searches with patterns
compiled once per process; a stored pattern that does not compile is skipped and logged, never
allowed to fail a turn.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.guardian.audit import high_risk_kinds
from app.guardian.models import GRAVITY, CensorMatch, CensorRule, Verdict, VerdictAction
from app.guardian.patterns import compiled, shipped_censors, shipped_keys
from app.guardian.settings import GuardianSettings

log = logging.getLogger(__name__)

_MATCHED_MAX = 120


def evaluate(text: str, censors: Iterable[CensorRule]) -> Verdict:
    """The verdict of ``censors`` on ``text``; pure (no graph).

    The gravest matching action wins (absolute > block > warn); with no match the text is
    allowed. Censors with the same pattern and action are checked once.
    """
    matches: list[CensorMatch] = []
    skipped: list[str] = []
    seen: set[tuple[str, str]] = set()
    checked = 0
    for censor in censors:
        if (censor.pattern, censor.action) in seen:
            continue
        seen.add((censor.pattern, censor.action))
        expression = compiled(censor.pattern)
        if expression is None:
            skipped.append(censor.id)
            continue
        checked += 1
        found = expression.search(text)
        if found is None:
            continue
        matched = found.group(0)
        matches.append(
            CensorMatch(
                censor_id=censor.id,
                key=censor.key,
                pattern=censor.pattern,
                reason=censor.reason,
                action=censor.action,
                source=censor.source,
                matched=matched if len(matched) <= _MATCHED_MAX else matched[:117] + "...",
            )
        )
    matches.sort(key=lambda match: -GRAVITY[match.action])
    action: VerdictAction = matches[0].action if matches else "allow"
    return Verdict(
        action=action,
        reason=_sentence(action, matches, checked),
        matches=matches,
        censors_checked=checked,
        skipped_invalid=skipped,
    )


def _label(match: CensorMatch) -> str:
    return match.key or match.censor_id


def _sentence(action: VerdictAction, matches: Sequence[CensorMatch], checked: int) -> str:
    if not matches:
        return f"Allowed: none of the {checked} censors matched."
    first = matches[0]
    why = first.reason.rstrip(". ")
    also = ""
    if len(matches) > 1:
        others = ", ".join(f"{_label(m)} ({m.action})" for m in matches[1:4])
        more = f" and {len(matches) - 4} more" if len(matches) > 4 else ""
        also = f" Also matched: {others}{more}."
    if action == "warn":
        return f"Allowed with a warning from censor {_label(first)}: {why}.{also}"
    if action == "block":
        return f"Refused by censor {_label(first)}: {why}.{also}"
    return f"Refused by absolute censor {_label(first)}: {why}. This can never be overridden.{also}"


def rules_from_rows(rows: Iterable[dict[str, Any]]) -> tuple[list[CensorRule], list[str]]:
    """Stored censors as rules, and the ids of malformed ones (skipped and logged).

    Graph copies of the shipped defaults give way to the file, which is the authority.
    """
    keys = shipped_keys()
    rules: list[CensorRule] = []
    malformed: list[str] = []
    for row in rows:
        if row.get("pack_name") == "default" and row.get("key") in keys:
            continue
        try:
            rules.append(CensorRule.model_validate(row))
        except ValidationError as error:
            log.warning("censor %s is malformed and skipped: %s", row.get("id"), error)
            malformed.append(str(row.get("id")))
    return rules, malformed


async def check(
    graph: GraphClient, agent_id: str, text: str, *, settings: GuardianSettings | None = None
) -> Verdict:
    """Tier 1: the shipped defaults and every active censor of the agent against ``text``.

    Args:
        text: the user's input or a proposed action's description.
        settings: when given, the verdict also names the tier-3 high-risk kinds ``text`` touches.

    Returns:
        The verdict; ``allowed`` is False for block and absolute.

    Raises:
        AgentNotFound: no such agent.
    """
    censors = await load_censors(graph, agent_id)
    verdict = evaluate(text, censors.rules)
    verdict.skipped_invalid.extend(censors.malformed)
    if settings is not None:
        verdict.high_risk_kinds = high_risk_kinds(text, settings)
    return verdict


@dataclass(frozen=True)
class Censors:
    """Everything tier 1 checks for one agent: the shipped defaults, then its stored censors."""

    rules: list[CensorRule]
    malformed: list[str]


async def load_censors(graph: GraphClient, agent_id: str) -> Censors:
    """One graph read; the result can judge several texts (:func:`evaluate`).

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("guardian/list_active_censors", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    stored, malformed = rules_from_rows(rows[0]["censors"])
    return Censors(rules=[*shipped_censors(), *stored], malformed=malformed)
