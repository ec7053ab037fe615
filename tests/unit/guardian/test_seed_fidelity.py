"""Issue 13, seed fidelity: moral keywords match as substrings (seed 000), and the seed's
high-risk words (seed 003) reach tier 3."""

from __future__ import annotations

import pytest

from app.beliefs.mechanics import Mechanics
from app.guardian.audit import high_risk_kinds
from app.guardian.settings import GuardianSettings
from app.loop.acting import moral_valence
from app.reasoning.offline.requests import risk_kinds

TOPICS = Mechanics().moral_topics


@pytest.mark.parametrize(
    "text",
    [
        "Keep the confidentiality agreement on file",
        "The auditor asked for the ledger",
        "That invoice looks fraudulent",
        "Check the privacy notice",
        "Security review of the vendor",
        "Compliance sign-off is due",
    ],
)
def test_moral_keywords_match_as_substrings(text: str) -> None:
    assert moral_valence(text, "success", TOPICS) == "confirmation"
    assert moral_valence(text, "failure", TOPICS) == "violation"
    assert moral_valence(text, "neutral", TOPICS) == "neutral"


def test_a_text_without_a_moral_topic_is_neutral() -> None:
    assert moral_valence("Reconcile the bank account", "failure", TOPICS) == "neutral"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Truncate the staging ledger", "delete"),
        ("Format the backup drive", "delete"),
        ("Send money to the contractor", "payment"),
        ("Purchase three new laptops", "payment"),
        ("Withdraw the deposit from the escrow account", "payment"),
        ("Broadcast the outage notice to all customers", "external_communication"),
    ],
)
def test_the_seed_high_risk_words_are_high_risk(text: str, kind: str) -> None:
    assert kind in high_risk_kinds(text, GuardianSettings())
    assert kind in risk_kinds(text)
