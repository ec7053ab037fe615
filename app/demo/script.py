"""What the demo agent lives through: the people, the calendar, the ledger's calls, the words
said in each conversation and the documents of the research corpus (docs/demo.md tells the
stories). Data only; :mod:`app.demo.stories` plays it through the loop."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from app.scenarios import driver

# Northwind Trading closes October 2026. The 28th is a Wednesday and one of the month's last
# three business days, so the close runs in the `month_end` context (docs/memory.md §4).
START = datetime(2026, 10, 28, 8, 30, tzinfo=UTC)

COMPANY = "Northwind Trading"
PACK = "gaap-fundamentals"
# The ledger's connection name (its tools are ledger.<tool>); the stage's calls go to it.
LEDGER = driver.LEDGER


@dataclass(frozen=True, slots=True)
class Character:
    name: str
    role: str
    seniority: str
    email: str
    # How often the agent deals with them and how much they matter to its work (0..1): with
    # authority, their relationship value, the weight of what they say (docs/memory.md §2).
    interaction_frequency: float = 0.0
    context_relevance: float = 0.5


# The principal (born with the agent): a director, authority 0.8 (docs/memory.md §2).
CONTROLLER = Character("Maria Lopez", "Controller", "director", "maria.lopez@northwind.example")
CFO = Character(
    "Tom Becker", "Chief Financial Officer", "c_suite", "tom.becker@northwind.example", 0.4, 1.0
)
AUDITOR = Character(
    "Lena Fischer", "External auditor", "senior", "lena.fischer@audit.example", 0.8, 1.0
)
CLERK = Character("Sam Patel", "Accounts payable clerk", "junior", "sam.patel@northwind.example")
PEOPLE = (CFO, AUDITOR, CLERK)

# --- the ledger (mcp-server-sqlite) -------------------------------------------------------------

LEDGER_SESSION = "october-close-ledger"
CREATE_INVOICES = (
    "CREATE TABLE invoices (number TEXT PRIMARY KEY, supplier TEXT NOT NULL, "
    "amount REAL NOT NULL, currency TEXT NOT NULL, period TEXT NOT NULL)"
)
# (number, supplier, amount): October's supplier invoices, recorded one call each.
INVOICES = (
    ("INV-1041", "Acme Freight", 1200.0),
    ("INV-1042", "Baltic Paper", 845.5),
    ("INV-1043", "Cobalt Energy", 3120.0),
    ("INV-1044", "Delta Office Supply", 312.8),
    ("INV-1045", "Acme Freight", 990.0),
    ("INV-1046", "Evergreen Cleaning", 640.0),
)
DROP_INVOICES = "DROP TABLE invoices"
DELETE_INVOICE = "DELETE FROM invoices WHERE number = 'INV-1043'"
REJECTION = "Never delete a posted invoice: reverse it with a credit note so the trail stays."
TOTALS = "SELECT supplier, SUM(amount) AS total FROM invoices GROUP BY supplier ORDER BY supplier"


def insert_invoice(number: str, supplier: str, amount: float) -> str:
    """The INSERT statement that records one invoice (the demo's own constants only)."""
    values = f"('{number}', '{supplier}', {amount:.2f}, 'EUR', '2026-10')"
    insert = "INSERT INTO invoices (number, supplier, amount, currency, period) VALUES "
    return insert + values


# --- the revision: resistance, then breakthrough ------------------------------------------------

ADJUSTMENTS_SESSION = "october-close-adjustments"
# The pack belief the people below contradict until it is revised (gaap-fundamentals).
REVISED_KEY = "pass-immaterial-adjustments"
# (speaker, message): a question, the controller's correction, then the auditor's and the CFO's
# evidence; the agent resists (strength unmoved, tension rising) until tension reaches 0.7.
ADJUSTMENT_TURNS = (
    (
        AUDITOR.name,
        "Can known misstatements that are clearly trivial be left unadjusted at the October close?",
    ),
    (
        CONTROLLER.name,
        "That's wrong: known misstatements that are clearly trivial may not be left unadjusted "
        "at Northwind.",
    ),
    (
        AUDITOR.name,
        "Known misstatements that are clearly trivial should not be left unadjusted: last year "
        "they hid a control weakness in accounts payable.",
    ),
    (
        CFO.name,
        "Known misstatements that are clearly trivial are not left unadjusted any more; the "
        "audit committee wants every known error booked.",
    ),
    (
        AUDITOR.name,
        "Known misstatements that are clearly trivial may not be left unadjusted: they pile up "
        "across periods and obscure trends.",
    ),
    (
        AUDITOR.name,
        "Known misstatements that are clearly trivial were not left unadjusted by our other "
        "clients this year.",
    ),
    (
        CONTROLLER.name,
        "No: known misstatements that are clearly trivial may not be left unadjusted; we book "
        "every known error.",
    ),
    (
        AUDITOR.name,
        "Known misstatements that are clearly trivial may not be left unadjusted before "
        "sign-off, the audit committee decided.",
    ),
    (
        CFO.name,
        "I repeat: known misstatements that are clearly trivial may not be left unadjusted.",
    ),
    (
        AUDITOR.name,
        "Known misstatements that are clearly trivial are booked, not left unadjusted.",
    ),
)
# Asked once the belief is revised: the answer rests on the revised belief (self-correction).
ADJUSTMENT_QUESTION = (
    CONTROLLER.name,
    "Can known misstatements that are clearly trivial be left unadjusted?",
)
# How the controller settles the contradictions the revision carried over.
RESOLUTION = (
    "Settled by the October revision: Northwind books every known error, however trivial; the "
    "summary of unadjusted differences stays empty."
)

# --- people of different authority ------------------------------------------------------------

OPINIONS_SESSION = "october-close-opinions"
# The same words weigh the speaker's relationship value: from the clerk (junior, 0.4) they move
# the pack's bank-reconciliation belief less than from the CFO (c_suite, 0.95), whose claim is
# also learned (a correction from authority 0.7 or more) and stands against it, open.
OPINION_TURNS = (
    (CLERK.name, "Bank accounts are not reconciled every month; small ones only at quarter end."),
    (CFO.name, "Bank accounts are not reconciled every month; small ones only at quarter end."),
)
# What the controller answers when the agent asks her how to proceed (a guidance approval).
GUIDANCE = "Note it in the close checklist."

# --- reflection: a session of similar turns, closed ----------------------------------------------

NOTES_SESSION = "october-close-checklist"
NOTE_TURNS = (
    (CONTROLLER.name, "Please remember that the Chase operating account is reconciled on day 2."),
    (CONTROLLER.name, "Please remember that the Chase payroll account is reconciled on day 2."),
    (CONTROLLER.name, "Please remember that the Barclays EUR account is reconciled on day 3."),
    (CONTROLLER.name, "Please remember that the Barclays USD account is reconciled on day 3."),
    (CONTROLLER.name, "Please remember that the petty cash account is counted on day 3."),
)

# --- research: conflicting sources ----------------------------------------------------------------

RESEARCH_QUESTION = (
    "Is it true that clearly trivial audit differences may be left unadjusted at month end?"
)


@dataclass(frozen=True, slots=True)
class CorpusDocument:
    id: str
    title: str
    published: str
    text: str


CORPUS_FILE = "northwind-close-policies.jsonl"
CORPUS = (
    CorpusDocument(
        "close-manual-2019",
        "Northwind close manual (2019)",
        "2019-03-01",
        "Clearly trivial audit differences may be left unadjusted at month end, provided they are "
        "logged in the summary of unadjusted differences.",
    ),
    CorpusDocument(
        "audit-committee-memo-2026",
        "Audit committee memo on unadjusted differences (2026)",
        "2026-09-15",
        "Clearly trivial audit differences may not be left unadjusted at month end, even when "
        "they are logged in the summary of unadjusted differences.",
    ),
    CorpusDocument(
        "auditing-standard-summary",
        "Summary of the auditing standard on misstatements",
        "2021-12-15",
        "The auditor accumulates misstatements identified during the audit, other than those "
        "that are clearly trivial, and asks management to correct them.",
    ),
)

# --- sign-off: the last step (a demo agent with this session closed is complete) ----------------

SIGN_OFF_SESSION = "october-close-sign-off"
SIGN_OFF = "Please remember that the October 2026 books were signed off by the controller."
