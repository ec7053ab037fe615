"""The guardian's pure parts: tier-1 evaluation, pattern validation, high-risk kinds, the audit
call (no database)."""

from __future__ import annotations

import logging
import time
from typing import cast

import pytest

from app.guardian.audit import audit_request, high_risk_kinds
from app.guardian.check import evaluate, evaluate_off_loop, evaluate_soon, rules_from_rows
from app.guardian.errors import CensorPatternInvalid
from app.guardian.models import CensorRule
from app.guardian.patterns import compiled, shipped_censors, validate_pattern
from app.guardian.settings import GuardianSettings
from app.reasoning.protocol import Audit, AuditRequest, Reasoner, WorkUnit
from tests.support.event_loop import ticking


def rule(pattern: str, action: str, key: str) -> CensorRule:
    return CensorRule.model_validate(
        {
            "id": key,
            "key": key,
            "pattern": pattern,
            "reason": f"{key} reason",
            "action": action,
            "source": "manual",
        }
    )


# --- tier 1 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action", "key"),
    [
        ("sudo rm -rf --no-preserve-root /", "absolute", "rm_rf_root_or_home"),
        ("DROP TABLE invoices;", "block", "sql_drop_table"),
        ("DROP DATABASE ledger;", "absolute", "sql_drop_database"),
        ("MATCH (n) DETACH DELETE n", "block", "cypher_delete_everything"),
        ("chmod 777 deploy.sh", "block", "chmod_world_writable"),
        ("eval(user_input)", "block", "code_eval_exec"),
        ("echo $(cat /etc/passwd)", "block", "shell_command_substitution"),
        ("admin'; --", "block", "sql_comment_injection"),
        (":(){ :|:& };:", "absolute", "fork_bomb"),
    ],
)
def test_the_shipped_defaults_fire_on_destructive_commands(
    text: str, action: str, key: str
) -> None:
    verdict = evaluate(text, shipped_censors())

    assert verdict.matches[0].key == key
    assert verdict.action == action
    assert verdict.matches[0].source == "default"
    assert verdict.allowed is (action == "warn")


@pytest.mark.parametrize(
    "text",
    [
        "let's drop table tennis from the offsite",
        "truncate the description to 100 characters",
        "DELETE FROM customers WHERE id = 42;",
        "rm -rf ./dist",
        "What is the weather like in Lisbon today?",
    ],
)
def test_harmless_look_alikes_are_allowed(text: str) -> None:
    verdict = evaluate(text, shipped_censors())

    assert verdict.action == "allow", verdict.matches
    assert verdict.allowed
    assert verdict.matches == []
    assert verdict.reason == f"Allowed: none of the {len(shipped_censors())} censors matched."


def test_the_gravest_match_wins_whatever_the_order() -> None:
    censors = [
        rule(r"payroll", "warn", "w"),
        rule(r"\bexport\b", "block", "b"),
        rule(r"payroll\.csv", "absolute", "a"),
    ]
    for ordering in (censors, censors[::-1], [censors[1], censors[0], censors[2]]):
        verdict = evaluate("export payroll.csv to the partner", ordering)
        assert verdict.action == "absolute"
        assert [m.action for m in verdict.matches] == ["absolute", "block", "warn"]
        assert not verdict.allowed
        assert verdict.reason.startswith("Refused by absolute censor a: a reason.")
        assert "Also matched: b (block), w (warn)." in verdict.reason

    warned = evaluate("payroll question", censors)
    assert warned.action == "warn" and warned.allowed
    assert warned.reason == "Allowed with a warning from censor w: w reason."
    blocked = evaluate("export it", censors)
    assert blocked.action == "block" and not blocked.allowed
    assert blocked.matches[0].matched == "export"


def test_a_stored_pattern_that_does_not_compile_is_skipped_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken = rule(r"(unclosed", "absolute", "broken")
    # Logged once per process (the compile cache): start from an empty cache, whatever ran before.
    compiled.cache_clear()
    with caplog.at_level(logging.WARNING):
        verdict = evaluate("anything (unclosed here", [broken, rule(r"here", "warn", "ok")])

    assert verdict.action == "warn"
    assert verdict.skipped_invalid == ["broken"]
    assert verdict.censors_checked == 1
    assert "does not compile" in caplog.text


def test_malformed_stored_rows_are_skipped_and_graph_copies_of_defaults_give_way() -> None:
    first = shipped_censors()[0]
    rows = [
        {
            "id": "copy",
            "key": first.key,
            "pattern": "stale",
            "reason": "r",
            "action": "block",
            "pack_name": "default",
            "source": "default",
        },
        {
            "id": "odd",
            "key": None,
            "pattern": "x",
            "reason": "r",
            "action": "explode",
            "pack_name": None,
            "source": "manual",
        },
        {
            "id": "fine",
            "key": None,
            "pattern": "x",
            "reason": "r",
            "action": "warn",
            "pack_name": None,
            "source": "manual",
        },
    ]
    rules, malformed = rules_from_rows(rows)

    assert [r.id for r in rules] == ["fine"]
    assert malformed == ["odd"]


def test_patterns_are_compiled_once() -> None:
    compiled.cache_clear()
    for _ in range(3):
        evaluate("nothing to see", shipped_censors())
    info = compiled.cache_info()
    assert info.misses == len({c.pattern for c in shipped_censors()})
    assert info.hits == 2 * info.misses


def test_a_check_of_a_long_text_finishes_within_its_limit() -> None:
    text = ("Please review the invoices of March and send me the summary. " * 1700)[:100_000]

    verdict = evaluate(text, shipped_censors(), timeout_seconds=10.0)

    assert verdict.timed_out == [] and verdict.action == "allow"


def test_a_censor_that_runs_out_of_time_is_a_warning_not_a_stall() -> None:
    # Stored before patterns were probed: (a+)+$ backtracks on "a" * 3000 + "!".
    catastrophic = rule(r"(a+)+$", "block", "nested")
    text = "a" * 3000 + "!"
    before = _timeouts_counted()
    started = time.perf_counter()

    verdict = evaluate(text, [catastrophic, rule(r"\bzzz\b", "block", "other")], 0.2)

    assert time.perf_counter() - started < 5.0  # unbounded, this is over a minute
    assert verdict.action == "warn" and verdict.allowed
    assert verdict.timed_out == ["nested"]
    assert "could not finish within the 0.2 s check limit (nested)" in verdict.reason
    assert _timeouts_counted() >= before + 1


def _timeouts_counted() -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("credence_guardian_timeouts_total") or 0.0


async def test_a_slow_check_runs_off_the_event_loop() -> None:
    """While a check burns its whole limit, the event loop keeps serving other work."""
    async with ticking(0.01) as ticks:
        verdict = await evaluate_off_loop(
            "a" * 3000 + "!", [rule(r"(a+)+$", "block", "nested")], 1.0
        )

    assert verdict.timed_out == ["nested"]
    # Blocked, the loop would have ticked once; free, about a hundred times.
    assert ticks.count >= 10, ticks


async def test_a_short_text_checked_on_the_loop_gets_the_verdict_the_pool_gives() -> None:
    censors = [*shipped_censors(), rule(r"\bwire\s+funds\b", "block", "wire")]
    for text in ("Please wire funds to ACME today", "Summarise the quarterly figures"):
        soon = await evaluate_soon(text, censors)

        assert soon == evaluate(text, censors)


async def test_a_short_text_that_outlasts_the_loop_budget_is_checked_off_the_loop() -> None:
    """The check on the event loop gives up within its small budget; the pool then takes the
    whole limit, and the loop keeps serving other work meanwhile."""
    async with ticking(0.01) as ticks:
        verdict = await evaluate_soon("a" * 1500 + "!", [rule(r"(a+)+$", "block", "nested")], 1.0)

    assert verdict.timed_out == ["nested"] and verdict.action == "warn"
    assert "within the 1 s check limit" in verdict.reason
    assert ticks.count >= 10, ticks


# --- pattern validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("", "empty"),
        ("   ", "empty"),
        (".*", "empty string"),
        ("a*", "empty string"),
        ("(?:)", "empty string"),
        (".", "every ordinary text"),
        (r"\w+", "every ordinary text"),
        ("(unclosed", "not a valid regular expression"),
        ("x" * 501, "longer than 500"),
        (r"(a+)+$", "it backtracks"),
        (r"(\w+\s?)+$", "it backtracks"),
        (r"^(a|aa)+$", "it backtracks"),
        (r"(x+x+)+y", "it backtracks"),
    ],
)
def test_invalid_patterns_are_refused_with_the_reason(pattern: str, problem: str) -> None:
    with pytest.raises(CensorPatternInvalid) as raised:
        validate_pattern(pattern)

    assert problem in raised.value.message
    assert raised.value.details["errors"][0]["location"] == ["body", "pattern"]


def test_a_valid_pattern_comes_back_normalised() -> None:
    assert validate_pattern(r"  \bwire\s+funds\b ") == r"\bwire\s+funds\b"


# --- tier 3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Please delete the old invoices", ["delete"]),
        ("I deleted it yesterday; keep deleting", ["delete"]),
        ("We dropped the staging tables", ["delete"]),
        ("Wire $5,000 to the supplier", ["payment"]),
        ("Transfer  funds to ACME", ["payment"]),
        ("transfer the balance to the savings account", ["payment"]),
        ("What's the API key for the billing service?", ["credentials"]),
        (
            "Email the report to the board and then wipe the drafts",
            ["delete", "external_communication"],
        ),
        ("The payload is unremarkable and the password-less login works", ["credentials"]),
        ("Summarise the quarterly figures", []),
        ("The display shows tokenisation errors", []),
        ("payday is on Friday", []),
    ],
)
def test_high_risk_kinds_match_whole_words(text: str, kinds: list[str]) -> None:
    assert high_risk_kinds(text, GuardianSettings()) == kinds


def test_high_risk_kinds_follow_the_settings() -> None:
    settings = GuardianSettings(high_risk_kinds={"legal": ["sign the contract", "sue"]})

    assert high_risk_kinds("Please sign the contracts today", settings) == ["legal"]
    assert high_risk_kinds("They sued us", settings) == ["legal"]
    assert high_risk_kinds("The issue is pursued", settings) == []  # inside words: no
    assert high_risk_kinds("We paid the bill", GuardianSettings()) == []  # irregular: not guessed
    assert high_risk_kinds("Delete everything", settings) == []


class FakeAuditor:
    """A reasoner that only audits: it records what it was asked and fails payments."""

    name = "fake"

    def __init__(self) -> None:
        self.requests: list[AuditRequest] = []

    async def audit(self, request: AuditRequest) -> Audit:
        self.requests.append(request)
        failing = "payment" in request.risk_kinds
        return Audit(
            reasoner="fake",
            passed=not failing,
            risk="high" if failing else "low",
            reason="it moves money without approval" if failing else "nothing against the creed",
            concerns=["moves money without approval"] if failing else [],
            creed_violations=request.creed if failing else [],
            recommendation="ask for the approval first" if failing else "go ahead",
        )


async def test_the_audit_asks_the_reasoner_with_creed_kinds_and_work_unit() -> None:
    reasoner = FakeAuditor()
    unit = WorkUnit(verb="transfer", entities=["ACME"], description="wire 5k to ACME")

    audit = await audit_request(
        cast(Reasoner, reasoner),
        "wire 5k to ACME",
        unit,
        ["Never move money without a person's approval"],
        ["payment"],
    )

    assert audit.passed is False and audit.risk == "high"
    assert audit.concerns == ["moves money without approval"]
    (request,) = reasoner.requests
    assert request.message == "wire 5k to ACME"
    assert request.work_unit == unit
    assert request.creed == ["Never move money without a person's approval"]
    assert request.risk_kinds == ["payment"]
