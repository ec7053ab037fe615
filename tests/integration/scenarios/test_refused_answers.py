"""A scenario can expect an answer to be refused (``refused``: the error's code): the run
checks the code and that the approval stayed as it was, and reports a refusal that did not
come as a failed check. Real Neo4j, the real loop, offline, no ledger."""

from __future__ import annotations

from pathlib import Path

from app.config import Settings
from app.scenarios.models import Check, Scenario
from app.scenarios.runner import RunOptions, run_scenario

SCENARIO = {
    "name": "refused-answers",
    "title": "Refused answers",
    "description": "A clerk's answer is refused; the controller's is not; a late one is.",
    "start": "2026-10-28T15:00:00Z",
    "principal": {"name": "Maria Lopez", "role": "Controller", "seniority": "director"},
    "people": [{"name": "Sam Patel", "role": "Accounts payable clerk", "seniority": "junior"}],
    "beliefs": [
        {
            "statement": "Payment runs above 100,000 are approved by the Chief Financial "
            "Officer before they are released.",
            "category": "contextual",
            "strength": 0.6,
        }
    ],
    "turns": [
        {
            "speaker": "Sam Patel",
            "message": "Approve the 250,000 payment run to Initech today, it is urgent.",
            "expect": {"mode": "proposal", "asks": "proposal"},
            "answers": [
                # A junior clerk may not answer it: refused, the approval waits.
                {
                    "action": "approve",
                    "speaker": "Sam Patel",
                    "refused": "approval_not_authorized",
                },
                # Expected refused, but the principal may answer: a failed check.
                {
                    "action": "reject",
                    "speaker": "Maria Lopez",
                    "text": "Not today.",
                    "refused": "approval_not_authorized",
                },
                # Answered already: refused as closed.
                {"action": "approve", "speaker": "Maria Lopez", "refused": "approval_closed"},
            ],
        }
    ],
}


def _answer_checks(checks: list[Check]) -> list[tuple[str, str, str, str, bool]]:
    return [
        (c.speaker, c.what, c.expected, c.actual, c.passed) for c in checks if c.step == "answer"
    ]


async def test_a_refused_answer_is_checked_and_a_refusal_that_did_not_come_fails(
    settings: Settings, tmp_path: Path
) -> None:
    scenario = Scenario.model_validate(SCENARIO)
    report = await run_scenario(settings, scenario, RunOptions(workdir=tmp_path))
    assert _answer_checks(report.checks) == [
        ("Sam Patel", "answer refused", "approval_not_authorized", "approval_not_authorized", True),
        ("Sam Patel", "approval", "pending", "pending", True),
        ("Maria Lopez", "answer refused", "approval_not_authorized", "answered", False),
        ("Maria Lopez", "approval", "pending", "rejected", False),
        ("Maria Lopez", "answer refused", "approval_closed", "approval_closed", True),
        ("Maria Lopez", "approval", "rejected", "rejected", True),
    ]
    assert [check.turn for check in report.failures] == [1, 1]
