"""Tier 1 of the guardian (docs/loop.md §5): every censor of the agent against one text.

The loop calls :func:`check` on the user's input and on each proposed action's description. It
costs one graph read (the agent's active censors) plus regular-expression searches with patterns
compiled once per process; a stored pattern that does not compile is skipped and logged, never
allowed to fail a turn.

The searches run in a small thread pool of their own (:func:`evaluate_off_loop`), never for
long on the event loop: a short text is checked there first within a budget of 2 ms for all
censors, and again in the pool when that is not enough (:func:`evaluate_soon`). A check has
one time limit (``GuardianSettings.check_timeout_seconds``): each search gets what is left of
it as the engine's timeout. A censor that runs out of time is
a finding itself (the verdict is at least ``warn`` and names it), logged and counted in
``credence_guardian_timeouts``; it never stalls the request or the process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pydantic import ValidationError

from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.guardian.audit import audit_request, creed_for, high_risk_kinds, work_unit_text
from app.guardian.comments import without_comments
from app.guardian.models import GRAVITY, CensorMatch, CensorRule, Verdict, VerdictAction
from app.guardian.patterns import compiled, shipped_censors, shipped_keys
from app.guardian.settings import GuardianSettings
from app.metrics import GUARDIAN_TIMEOUTS
from app.reasoning.protocol import Reasoner, WorkSpec, WorkUnit

log = logging.getLogger(__name__)

_MATCHED_MAX = 120
# Checks run here, off the event loop; the engine releases the GIL while it matches, so the
# loop (and /health) keeps answering while a long text is checked.
_CHECKS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="censor-check")
DEFAULT_CHECK_TIMEOUT_SECONDS = GuardianSettings().check_timeout_seconds
# What each censor gets once the check's limit is spent (so a check ends within the limit plus
# this much per censor).
_SLICE_SECONDS = 0.01
# A text this short is checked on the event loop first, all censors within this budget
# (:func:`evaluate_soon`): the stall it can cause is bounded by the budget.
_INLINE_MAX_CHARS = 2_000
_INLINE_BUDGET_SECONDS = 0.002


async def evaluate_off_loop(
    text: str,
    censors: Iterable[CensorRule],
    timeout_seconds: float = DEFAULT_CHECK_TIMEOUT_SECONDS,
) -> Verdict:
    """:func:`evaluate` in the guardian's thread pool, so the event loop never runs a search."""
    work = partial(evaluate, text, list(censors), timeout_seconds)
    return await asyncio.get_running_loop().run_in_executor(_CHECKS, work)


async def evaluate_soon(
    text: str,
    censors: Iterable[CensorRule],
    timeout_seconds: float = DEFAULT_CHECK_TIMEOUT_SECONDS,
) -> Verdict:
    """:func:`evaluate`, on the event loop when that is cheap and bounded: a text of at most
    ``_INLINE_MAX_CHARS`` characters is checked here first, within ``_INLINE_BUDGET_SECONDS``
    for all the censors together (the thread hand-off costs more than such a check); a check
    that does not finish within it is done again in the thread pool, within the full limit."""
    rules = list(censors)
    if len(text) <= _INLINE_MAX_CHARS:
        found = _search(text, rules, _INLINE_BUDGET_SECONDS, give_up=True)
        if found is not None:
            return _verdict(text, found, timeout_seconds)
    return await evaluate_off_loop(text, rules, timeout_seconds)


def evaluate(
    text: str,
    censors: Iterable[CensorRule],
    timeout_seconds: float = DEFAULT_CHECK_TIMEOUT_SECONDS,
) -> Verdict:
    """The verdict of ``censors`` on ``text``; pure (no graph).

    The gravest matching action wins (absolute > block > warn); with no match the text is
    allowed. Censors with the same pattern and action are checked once. All searches share
    ``timeout_seconds`` (once it is spent, each censor left gets 10 ms); a censor whose search
    runs out of time is named in ``timed_out`` and makes the verdict at least ``warn``.
    """
    found = _search(text, censors, timeout_seconds, give_up=False)
    assert found is not None  # only a search that gives up returns None
    return _verdict(text, found, timeout_seconds)


@dataclass(slots=True)
class _Searched:
    """What the searches of one check found."""

    matches: list[CensorMatch] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    timed_out: list[str] = field(default_factory=list)
    checked: int = 0


def _search(
    text: str, censors: Iterable[CensorRule], timeout_seconds: float, give_up: bool
) -> _Searched | None:
    """Every censor's search of ``text`` within ``timeout_seconds`` for all of them.
    ``give_up``: the first search that runs out of time (or finds the time spent) ends the
    check with None; otherwise each censor left gets a short slice and a timeout is noted."""
    found = _Searched()
    seen: set[tuple[str, str]] = set()
    deadline = time.monotonic() + timeout_seconds
    # The text as written, and without its SQL comments when it has any (app/guardian/comments.py).
    plain = without_comments(text)
    texts = (text,) if plain is text else (text, plain)
    for censor in censors:
        if (censor.pattern, censor.action) in seen:
            continue
        seen.add((censor.pattern, censor.action))
        expression = compiled(censor.pattern)
        if expression is None:
            found.skipped.append(censor.id)
            continue
        remaining = deadline - time.monotonic()
        if give_up and remaining <= 0:
            return None
        # Past the deadline each censor still gets a short slice: one slow pattern must not
        # leave the others (the shipped absolute ones above all) unchecked.
        limit = remaining if give_up else max(remaining, _SLICE_SECONDS)
        found.checked += 1
        try:
            hit = None
            for each in texts:
                hit = expression.search(each, timeout=limit, concurrent=not give_up)
                if hit is not None:
                    break
        except TimeoutError:
            if give_up:
                return None
            found.timed_out.append(censor.id)
            continue
        if hit is not None:
            found.matches.append(_match(censor, hit.group(0)))
    return found


def _match(censor: CensorRule, matched: str) -> CensorMatch:
    return CensorMatch(
        censor_id=censor.id,
        key=censor.key,
        pattern=censor.pattern,
        reason=censor.reason,
        action=censor.action,
        source=censor.source,
        matched=matched if len(matched) <= _MATCHED_MAX else matched[:117] + "...",
    )


def _verdict(text: str, found: _Searched, timeout_seconds: float) -> Verdict:
    matches, timed_out = found.matches, found.timed_out
    matches.sort(key=lambda match: -GRAVITY[match.action])
    action: VerdictAction = matches[0].action if matches else "allow"
    reason = _sentence(action, matches, found.checked)
    if timed_out:
        _log_timeouts(text, timed_out, timeout_seconds)
        if action == "allow":
            action = "warn"
            reason = "Allowed with a warning: the check ran out of time."
        reason += (
            f" {len(timed_out)} censor(s) could not finish within the {timeout_seconds:g} s "
            f"check limit ({', '.join(timed_out[:4])}{', ...' if len(timed_out) > 4 else ''})."
        )
    return Verdict(
        action=action,
        reason=reason,
        matches=matches,
        censors_checked=found.checked,
        skipped_invalid=found.skipped,
        timed_out=timed_out,
    )


def _log_timeouts(text: str, timed_out: list[str], timeout_seconds: float) -> None:
    GUARDIAN_TIMEOUTS.inc(len(timed_out))
    log.warning(
        "censor check of a %d-character text ran out of its %g s limit; unfinished: %s",
        len(text),
        timeout_seconds,
        ", ".join(timed_out),
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
    graph: GraphClient,
    agent_id: str,
    text: str,
    *,
    settings: GuardianSettings | None = None,
    work_unit: WorkSpec | None = None,
) -> Verdict:
    """Tier 1: the shipped defaults and every active censor of the agent against ``text``.

    Args:
        text: the user's input or a proposed action's description.
        work_unit: the action proposed for ``text``: its description, verb and entities are
            checked with it, and read for the tier-3 kinds.
        settings: when given, the verdict also names the tier-3 high-risk kinds ``text`` touches.

    Returns:
        The verdict; ``allowed`` is False for block and absolute.

    Raises:
        AgentNotFound: no such agent.
    """
    if work_unit is not None:
        text = f"{text}\n{work_unit_text(work_unit)}"
    censors = await load_censors(graph, agent_id)
    limit = settings.check_timeout_seconds if settings else DEFAULT_CHECK_TIMEOUT_SECONDS
    verdict = await evaluate_soon(text, censors.rules, limit)
    verdict.skipped_invalid.extend(censors.malformed)
    if settings is not None:
        verdict.high_risk_kinds = high_risk_kinds(text, settings)
    return verdict


async def check_and_audit(
    graph: GraphClient,
    reasoner: Reasoner,
    agent_id: str,
    text: str,
    *,
    settings: GuardianSettings,
    work_unit: WorkSpec | None = None,
) -> Verdict:
    """Tier 1, then the tier-3 audit against the creed on request, whether or not the text
    touches a high-risk kind (seed 003: a person may ask for a safety review). The reasoner is
    called after the graph reads, outside any transaction.

    Returns:
        The tier-1 verdict with ``audit`` set; a failed audit makes it block, with the audit's
        reason.

    Raises:
        AgentNotFound: no such agent.
    """
    verdict = await check(graph, agent_id, text, settings=settings, work_unit=work_unit)
    creed = await creed_for(graph, agent_id)
    unit = WorkUnit.model_validate(work_unit.model_dump()) if work_unit is not None else None
    audit = await audit_request(reasoner, text, unit, creed, verdict.high_risk_kinds)
    verdict.audit = audit
    if not audit.passed and verdict.action in ("allow", "warn"):
        verdict.action = "block"
        verdict.reason = f"the audit against the creed failed: {audit.reason}"
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
    rows = await graph.read("guardian/check/list_active_censors", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    return censors_of(rows[0]["censors"])


def censors_of(stored_rows: Iterable[dict[str, Any]]) -> Censors:
    """The censors from the agent's stored ones (rows as ``guardian/check/list_active_censors``
    returns them, also read by other queries: a tool call's start reads them with the rest)."""
    stored, malformed = rules_from_rows(stored_rows)
    return Censors(rules=[*shipped_censors(), *stored], malformed=malformed)
