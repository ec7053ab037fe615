"""The censor a "never" rejection teaches fires on the same proposal again, as the guardian
reads it (the verb and its entity on lines of their own), and on an entity such as ``$500``."""

from __future__ import annotations

import pytest

from app.guardian.audit import work_unit_text
from app.guardian.check import evaluate
from app.guardian.learning import rejected_action_pattern
from app.guardian.models import CensorRule
from app.guardian.patterns import validate_pattern
from app.reasoning.protocol import ToolCall, WorkUnit


def _fires(pattern: str, text: str) -> bool:
    rule = CensorRule(
        id="learned", pattern=validate_pattern(pattern), reason="r", action="warn", source="learned"
    )
    return evaluate(text, [rule]).action == "warn"


@pytest.mark.parametrize(
    ("unit", "message"),
    [
        (
            WorkUnit(
                verb="post_journal_entry",
                description="Post the accrual to ACC-1001",
                entities=["ACC-1001"],
            ),
            "Book the month-end accrual",
        ),
        (WorkUnit(verb="pay", description="Pay the vendor", entities=["$500"]), "Pay them"),
        (WorkUnit(verb="archive", description="Archive it", entities=[]), "Tidy up"),
    ],
)
def test_a_learned_censor_fires_on_the_proposal_it_was_learned_from(
    unit: WorkUnit, message: str
) -> None:
    pattern = rejected_action_pattern(unit)
    # The guardian reads a proposal as the message, then the unit's parts, a line each.
    assert _fires(pattern, f"{message}\n{work_unit_text(unit)}")


def test_a_learned_censor_reads_a_message_naming_the_action() -> None:
    pay = rejected_action_pattern(WorkUnit(verb="pay", description="d", entities=["$500"]))
    assert _fires(pay, "please pay $500 to Acme")
    assert not _fires(pay, "please pay $5000 to Acme")
    assert not _fires(pay, "pay the invoice")
    call = WorkUnit(
        verb="call_tool",
        description="call ledger.write_query with the statement",
        call=ToolCall(connection="ledger", tool="write_query"),
    )
    assert _fires(rejected_action_pattern(call), "call ledger.write_query with DROP")
