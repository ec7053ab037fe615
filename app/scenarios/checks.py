"""Checking a turn's result against the decisions a scenario expects of it: one
:class:`~app.scenarios.models.Check` per field the expectation sets."""

from __future__ import annotations

import json
from collections.abc import Callable

from app.loop.models import TurnResult
from app.scenarios.models import Check, Expectation

# (what, expected, actual, passed)
Outcome = tuple[str, str, str, bool]


def _asks(result: TurnResult) -> str:
    pending = result.approval is not None and result.approval.status == "pending"
    return result.approval.kind if pending and result.approval else "nothing"


def _tool(result: TurnResult) -> str:
    unit = result.work_unit
    return unit.call.qualified_name if unit is not None and unit.call is not None else "none"


def _output(result: TurnResult) -> str:
    if result.execution is None:
        return ""
    return json.dumps(result.execution.output, default=str) + " " + result.execution.message


def _learned(result: TurnResult) -> list[str]:
    return [item.statement for item in result.learned if not item.reinforced]


def _flag(name: str, wanted: bool | None, actual: bool) -> list[Outcome]:
    if wanted is None:
        return []
    return [(name, str(wanted).lower(), str(actual).lower(), wanted == actual)]


def _same(name: str, wanted: str | None, actual: str) -> list[Outcome]:
    if wanted is None:
        return []
    return [(name, wanted, actual, wanted == actual)]


def _holds(name: str, wanted: str | None, actual: list[str]) -> list[Outcome]:
    """``wanted`` (case-insensitive) is part of one of the ``actual`` texts."""
    if wanted is None:
        return []
    found = [text for text in actual if wanted.lower() in text.lower()]
    shown = found[0] if found else ("; ".join(actual) or "none")
    return [(name, f"…{wanted}…", _short(shown), bool(found))]


def _short(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def check_turn(expectation: Expectation, result: TurnResult) -> list[Outcome]:
    """Every expectation the ``expectation`` sets, compared with ``result``."""
    belief = result.relevant_belief.statement if result.relevant_belief else "none"
    verb = result.work_unit.verb if result.work_unit else "none"
    rises = any(move.new > move.old for move in result.tension_changes)
    escalated = result.verification is not None and result.verification.action == "escalate"
    executed = result.execution is not None and result.execution.status == "executed"
    parts: list[Callable[[], list[Outcome]]] = [
        lambda: _same("mode", expectation.mode, result.mode),
        lambda: _flag("refused", expectation.refused, result.mode == "blocked"),
        lambda: _same("guardian", expectation.guardian, result.guardian.action),
        lambda: _same("asks", expectation.asks, _asks(result)),
        lambda: _flag("revision", expectation.revision, bool(result.revisions)),
        lambda: _flag("escalated", expectation.escalated, escalated),
        lambda: _holds("belief", expectation.belief, [belief]),
        lambda: _same("verb", expectation.verb, verb),
        lambda: _same("tool", expectation.tool, _tool(result)),
        lambda: _flag("executed", expectation.executed, executed),
        lambda: _flag("learns", expectation.learns, bool(_learned(result))),
        lambda: _holds("learned", expectation.learned, _learned(result)),
        lambda: _flag("tension rises", expectation.tension_rises, rises),
    ]
    outcomes = [outcome for part in parts for outcome in part()]
    for text in expectation.result_contains:
        outcomes += _holds("result", text, [_output(result)])
    for text in expectation.response_contains:
        outcomes += _holds("response", text, [result.response])
    return outcomes


def turn_checks(
    number: int, step: str, speaker: str, expectation: Expectation, result: TurnResult
) -> list[Check]:
    """The checks of one turn (``step`` 'turn') or of the turn an answer resumed ('answer')."""
    return [check_of(number, step, speaker, outcome) for outcome in check_turn(expectation, result)]


def check_of(number: int, step: str, speaker: str, outcome: Outcome) -> Check:
    """The check of turn ``number``'s ``step`` by ``speaker`` that found ``outcome``."""
    what, expected, actual, passed = outcome
    return Check(
        turn=number,
        step=step,
        speaker=speaker,
        what=what,
        expected=expected,
        actual=actual,
        passed=passed,
    )


def describe(result: TurnResult) -> str:
    """One line of what a turn decided (the run's progress)."""
    parts = [result.mode, f"verb {result.work_unit.verb if result.work_unit else 'none'}"]
    if result.guardian.action != "allow":
        parts.append(f"guardian {result.guardian.action}")
    if _asks(result) != "nothing":
        parts.append(f"asks {_asks(result)}")
    if result.execution is not None:
        parts.append(f"execution {result.execution.status}")
    if result.verification is not None and result.verification.action != "proceed":
        parts.append(f"verification {result.verification.action}")
    if result.relevant_belief is not None:
        belief = result.relevant_belief
        parts.append(f"belief {_short(belief.statement, 60)!r} at {belief.strength:.2f}")
    rises = [move for move in result.tension_changes if move.new > move.old]
    if rises:
        top = max(rises, key=lambda move: move.new)
        parts.append(f"tension up on {len(rises)} (to {top.new:.2f} at most)")
    if result.revisions:
        parts.append(f"{len(result.revisions)} revision(s)")
    learned = _learned(result)
    if learned:
        parts.append(f"learned {_short(learned[0], 60)!r}")
    return ", ".join(parts)
