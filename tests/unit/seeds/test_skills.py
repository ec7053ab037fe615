"""The accounting skill (seeds/skills/accounting.yaml), a pack's own skill (the example pack
procurement-basics) and the offline mapping of requests to their verb vocabularies."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import SeedFileInvalid
from app.reasoning.offline.requests import is_request, parse_work
from app.seeds.files import find_pack, parse_pack
from app.seeds.pack_schema import KnowledgePack
from app.seeds.skill_schema import DomainSkill
from app.seeds.skills import load_skill, read_skill

SEED_VOCABULARY = {
    "create_record", "update_record", "delete_record", "validate_entry", "reconcile_accounts",
    "process_invoice", "approve_document", "reject_document", "extract_data", "fill_form",
    "generate_report", "send_notification", "request_approval", "escalate_issue",
    "schedule_followup", "confirm_receipt", "compare_values", "calculate_variance",
    "identify_anomaly", "summarize_period", "forecast_trend",
}  # fmt: skip


def test_the_skill_has_seed_000s_vocabulary_and_criteria() -> None:
    skill = load_skill("accounting")
    assert set(skill.verbs) == SEED_VOCABULARY
    assert [item.key for item in skill.criteria] == [
        "completeness",
        "accuracy",
        "authorization",
        "timing",
        "audit_trail",
    ]
    assert "segregation of duties" in skill.domain_prompt


@pytest.mark.parametrize(
    ("message", "verb"),
    [
        ("Record the invoice INV-1041 from Acme Freight for 1200", "process_invoice"),
        ("Please post the Baltic Paper bill", "process_invoice"),
        ("Record the October rent accrual", "create_record"),
        ("Accrue the October utilities", "create_record"),
        ("Reconcile the Chase account for October", "reconcile_accounts"),
        ("Approve the payment run", "approve_document"),
        ("Reject the expense claim", "reject_document"),
        ("Update the vendor's bank details", "update_record"),
        ("Delete the duplicate entry", "delete_record"),
        ("Check the accrual against the contract", "validate_entry"),
        ("Prepare the variance report", "generate_report"),
        ("Request approval for the payment run", "request_approval"),
        ("Escalate the vendor change to Tom", "escalate_issue"),
        ("Compare the two invoices", "compare_values"),
        ("Summarise October", "summarize_period"),
        ("Flag the duplicate invoice", "identify_anomaly"),
    ],
)
def test_requests_map_to_the_vocabulary(message: str, verb: str) -> None:
    parsed = parse_work(message, None)
    assert parsed.verb == verb
    assert parsed.known_verb


@pytest.mark.parametrize(
    ("message", "verb"),
    [
        ("Remember that the audit starts Monday", "respond"),  # not an imperative it knows
        ("Book a meeting with Tom", "book"),  # a meeting is not a record
        ("Pay Acme today", "pay"),  # outside the vocabulary: the request's own word
        ("Send the invoice to Acme Corp", "send"),  # sending a document is not a notification
        ("What is our revenue policy?", "answer"),
    ],
)
def test_verbs_outside_the_domain_keep_their_word(message: str, verb: str) -> None:
    assert parse_work(message, None).verb == verb


def test_a_bad_skill_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "name: broken\nversion: 1\ndomain_prompt: x\n"
        "vocabulary:\n  - verb: Not A Verb\n    group: g\n    description: d\n"
        "criteria:\n  - key: completeness\n    question: q\n",
        encoding="utf-8",
    )
    with pytest.raises(SeedFileInvalid) as raised:
        read_skill(bad)
    assert str(bad) in str(raised.value)
    assert "vocabulary[0].verb" in str(raised.value)


def test_a_verb_listed_twice_is_refused(tmp_path: Path) -> None:
    twice = tmp_path / "twice.yaml"
    entry = "  - verb: create_record\n    group: g\n    description: d\n"
    twice.write_text(
        "name: twice\nversion: 1\ndomain_prompt: x\nvocabulary:\n"
        + entry * 2
        + "criteria:\n  - key: completeness\n    question: q\n",
        encoding="utf-8",
    )
    with pytest.raises(SeedFileInvalid, match=r"vocabulary\[1\]\.verb"):
        read_skill(twice)


# --- a pack's own skill (docs/packs.md §5) ---------------------------------------------------


def _procurement() -> DomainSkill:
    skill = find_pack("procurement-basics").skill
    assert skill is not None
    return skill


def test_the_example_pack_brings_a_skill_of_the_same_model() -> None:
    skill = _procurement()
    assert isinstance(skill, DomainSkill) and skill.name == "procurement"
    assert "skill" in KnowledgePack.model_json_schema()["properties"]
    assert not set(skill.verbs) & set(load_skill().verbs)


@pytest.mark.parametrize(
    ("message", "verb"),
    [
        ("Raise a purchase order for 40 laptops from Dell", "issue_purchase_order"),
        ("Raise a requisition for two monitors", "raise_requisition"),
        ("Request quotes for office chairs", "request_quotes"),
        ("Onboard the supplier Nordic Steel", "onboard_supplier"),
        ("Receive the Dell delivery", "receive_goods"),
        ("Match the Dell invoice to the PO", "three_way_match"),
        ("Evaluate the bids for the cleaning contract", "evaluate_bids"),
    ],
)
def test_requests_map_to_the_pack_skill(message: str, verb: str) -> None:
    parsed = parse_work(message, None, _procurement())
    assert parsed.verb == verb and parsed.known_verb
    # Under the shipped skill none of them is that verb.
    assert parse_work(message, None).verb != verb


def test_a_word_the_pack_skill_maps_makes_a_request() -> None:
    assert not is_request("Onboard the supplier Nordic Steel")
    assert is_request("Onboard the supplier Nordic Steel", _procurement())


def _pack_document(skill: dict[str, object]) -> dict[str, object]:
    return {**find_pack("procurement-basics").model_dump(mode="json"), "skill": skill}


def test_a_bad_pack_skill_names_the_field_under_skill() -> None:
    skill = _procurement().model_dump(mode="json")
    skill["vocabulary"][0]["requests"][0]["words"] = ["Raise"]
    skill["criteria"].append(dict(skill["criteria"][0]))
    with pytest.raises(SeedFileInvalid) as raised:
        parse_pack(_pack_document(skill), "request body")
    assert "skill.vocabulary[0].requests[0].words[0]" in str(raised.value)
    # The field types first; the duplicates once the fields are right.
    skill["vocabulary"][0]["requests"][0]["words"] = ["raise"]
    with pytest.raises(SeedFileInvalid) as again:
        parse_pack(_pack_document(skill), "request body")
    locations = [item["location"] for item in again.value.details["errors"]]
    assert locations == [["file", "request body", "skill", "criteria", 5, "key"]]
